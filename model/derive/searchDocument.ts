/**
 * The search document of an entity: for each search field of its type, the values found in its latest aspects at
 * the annotated paths. A soft-deleted entity (status.removed) has no document: it is not searchable.
 */
import { walkAnnotated } from '../annotations.ts'
import type { EntitySpec } from '../entities.ts'
import type { Registry } from '../registry.ts'

/** Field name -> distinct values, in first-seen order. `urn` is always present. */
export interface SearchDocument {
  urn: string
  entityType: string
  fields: Record<string, string[]>
}

/** The implicit free-text field every document has: the urn itself (its parts are searchable). */
export const URN_FIELD = 'urn'

/** Whether the entity is soft-deleted. */
export function isRemoved(aspects: ReadonlyMap<string, unknown>): boolean {
  const status = aspects.get('status') as { removed?: boolean } | undefined
  return status?.removed === true
}

/**
 * One `/` path from a list of records (browsePathsV2 entries): of each the first of `keys` it has, then the entity's
 * urn, each segment with `/` written `%2F`; undefined for an empty list or one with a record lacking every key.
 */
export function joinedPath(entries: unknown, keys: readonly string[], urn: string): string | undefined {
  if (!Array.isArray(entries) || entries.length === 0) return undefined
  const pick = (e: Record<string, unknown>) => keys.map((k) => e[k]).find((v) => typeof v === 'string' && v.length > 0)
  const ids = entries.map((e) => (e && typeof e === 'object' ? pick(e as Record<string, unknown>) : undefined))
  if (!ids.every((id): id is string => typeof id === 'string' && id.length > 0)) return undefined
  return `/${[...ids, urn].map((s) => s.replaceAll('/', '%2F')).join('/')}`
}

/** Derives the document; null when the entity is soft-deleted or has no aspects at all. */
export function searchDocument(
  registry: Registry, entity: EntitySpec, urn: string, aspects: ReadonlyMap<string, unknown>,
): SearchDocument | null {
  if (aspects.size === 0 || isRemoved(aspects)) return null
  const sets = new Map<string, Set<string>>()
  const add = (field: string, value: string): void => {
    let set = sets.get(field)
    if (!set) sets.set(field, (set = new Set()))
    set.add(value)
  }
  add(URN_FIELD, urn)
  for (const spec of registry.versionedAspects(entity)) {
    const value = aspects.get(spec.name)
    if (value === undefined) continue
    walkAnnotated(spec.schema, value, (node, found) => {
      if (!node.searchable) return
      if (node.searchable.joinPath) {
        const path = joinedPath(found, node.searchable.joinPath, urn)
        if (path) add(node.searchable.field, path)
      } else if (typeof found === 'string' && found.length > 0) add(node.searchable.field, found)
      else if (typeof found === 'number' || typeof found === 'boolean') add(node.searchable.field, String(found))
    })
  }
  const fields: Record<string, string[]> = {}
  for (const [field, set] of sets) fields[field] = [...set]
  return { urn, entityType: entity.name, fields }
}
