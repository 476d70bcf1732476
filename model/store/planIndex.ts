/**
 * Pure planners for the indexes kept on core Redis structures whatever the search engine: relationship edges
 * (both directions) and browse folders.
 */
import { browseEntries } from '../derive/browse.ts'
import type { Edge } from '../derive/edges.ts'
import type { SearchDocument } from '../derive/searchDocument.ts'
import type { Keys } from './keys.ts'
import type { Op } from './ops.ts'

/** Ops adding and removing edges of `urn`, on its own out-sets and on the targets' in-sets. */
export function edgeOps(keys: Keys, urn: string, added: readonly Edge[], removed: readonly Edge[]): Op[] {
  const ops: Op[] = []
  for (const e of removed) {
    ops.push(['ZREM', keys.edgesOut(urn, e.type), e.target], ['ZREM', keys.edgesIn(e.target, e.type), urn])
  }
  for (const e of added) {
    ops.push(['ZADD', keys.edgesOut(urn, e.type), '0', e.target], ['ZADD', keys.edgesIn(e.target, e.type), '0', urn])
  }
  return ops
}

/** Ops removing every incoming edge of a deleted entity: `incoming` maps relationship -> source urns. */
export function incomingEdgeRemovalOps(keys: Keys, urn: string, incoming: ReadonlyMap<string, readonly string[]>): Op[] {
  const ops: Op[] = []
  for (const [type, sources] of incoming) {
    for (const source of sources) ops.push(['ZREM', keys.edgesOut(source, type), urn])
    ops.push(['DEL', keys.edgesIn(urn, type)])
  }
  return ops
}

const pathsOf = (doc: SearchDocument | null): string[] => doc?.fields.browsePaths ?? []

/**
 * Ops moving an entity's browse entries from what `before` lists to what `after` lists. An entity is a member of
 * each folder it is listed in; the type's folder lexicon lists folders that have members (ZLINK/ZUNLINK), from
 * which browse derives groups and their counts. No counters: restating an entity heals whatever was lost.
 */
export function browseOps(keys: Keys, entityType: string, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[] {
  const old = browseEntries(pathsOf(before))
  const now = browseEntries(pathsOf(after))
  const folders = keys.browseFolders(entityType)
  const ops: Op[] = []
  for (const [folder, name] of old.listed) {
    if (now.listed.get(folder) === name) continue
    ops.push(['ZUNLINK', keys.browseEntities(entityType, folder), urn, folders, folder], ['HDEL', keys.browseNames(entityType, folder), urn])
  }
  for (const [folder, name] of now.listed) {
    if (old.listed.get(folder) === name) continue
    ops.push(['ZLINK', keys.browseEntities(entityType, folder), '0', urn, folders, folder], ['HSET', keys.browseNames(entityType, folder), urn, name])
  }
  return ops
}
