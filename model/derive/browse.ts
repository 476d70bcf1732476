/**
 * Browse entries of an entity from its browse paths. An entity whose path is `/a/b/name` is listed in folder
 * `/a/b` under `name`; it also counts in group `a` of folder `/` and group `b` of folder `/a`, which browse
 * derives from the folders that list entities.
 */

/** Normalizes a browse path: no trailing slash, root is the empty string. */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

export interface BrowseEntries {
  /** folder -> name the entity is listed under there (first path wins). */
  listed: Map<string, string>
}

/** Where an entity with these browse paths is listed. */
export function browseEntries(paths: readonly string[]): BrowseEntries {
  const listed = new Map<string, string>()
  for (const raw of paths) {
    const parts = normalizePath(raw).split('/').slice(1)
    if (parts.length === 0) continue
    const folder = parts.length > 1 ? `/${parts.slice(0, -1).join('/')}` : ''
    if (!listed.has(folder)) listed.set(folder, parts[parts.length - 1]!)
  }
  return { listed }
}

/** The groups of `folder`: its next-level child folders, with the folders below each (from the folder lexicon). */
export function groupsOf(folder: string, descendants: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>()
  for (const path of descendants) {
    const rest = path.slice(folder.length + 1)
    const name = rest.split('/')[0]!
    if (!name) continue
    groups.set(name, [...(groups.get(name) ?? []), path])
  }
  return groups
}
