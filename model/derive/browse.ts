/**
 * Browse entries of an entity from its browse paths. An entity whose path is `/a/b/name` is listed in folder
 * `/a/b` under `name`; it also counts in group `a` of folder `/` and group `b` of folder `/a`.
 */

/** Normalizes a browse path: no trailing slash, root is the empty string. */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

export interface BrowseEntries {
  /** folder -> name the entity is listed under there (first path wins). */
  listed: Map<string, string>
  /** `folder SEP group` pairs the entity counts in (each once). */
  groups: Set<string>
}

/** Where an entity with these browse paths is listed and which groups it counts in. */
export function browseEntries(paths: readonly string[]): BrowseEntries {
  const listed = new Map<string, string>()
  const groups = new Set<string>()
  for (const raw of paths) {
    const parts = normalizePath(raw).split('/').slice(1)
    if (parts.length === 0) continue
    const name = parts[parts.length - 1]!
    const folders = parts.slice(0, -1)
    const folder = folders.length ? `/${folders.join('/')}` : ''
    if (!listed.has(folder)) listed.set(folder, name)
    for (let i = 0; i < folders.length; i++) {
      const parent = i === 0 ? '' : `/${folders.slice(0, i).join('/')}`
      groups.add(`${parent}\u0000${folders[i]}`)
    }
  }
  return { listed, groups }
}
