/**
 * Pure planners for the indexes kept on core Redis structures whatever the search engine: relationship edges
 * (both directions) and browse folders.
 */
import { browseEntries } from '../derive/browse.ts'
import type { Edge } from '../derive/edges.ts'
import type { SearchDocument } from '../derive/searchDocument.ts'
import type { Keys } from './keys.ts'
import type { Op } from './ops.ts'

/**
 * Ops adding and removing edges of `urn`: its own out-sets and the targets' incoming entries, both in `urn`'s
 * shard (an incoming entry lives with its source, keyed by the target).
 */
export function edgeOps(keys: Keys, urn: string, added: readonly Edge[], removed: readonly Edge[]): Op[] {
  const shard = keys.shardOf(urn)
  const ops: Op[] = []
  for (const e of removed) {
    ops.push(['ZREM', keys.edgesOut(urn, e.type), e.target], ['ZREM', keys.edgesIn(shard, e.target, e.type), urn])
  }
  for (const e of added) {
    ops.push(['ZADD', keys.edgesOut(urn, e.type), '0', e.target], ['ZADD', keys.edgesIn(shard, e.target, e.type), '0', urn])
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
  const shard = keys.shardOf(urn)
  const old = browseEntries(pathsOf(before))
  const now = browseEntries(pathsOf(after))
  const folders = keys.browseFolders(shard, entityType)
  const ops: Op[] = []
  for (const [folder, name] of old.listed) {
    if (now.listed.get(folder) === name) continue
    ops.push(['ZUNLINK', keys.browseEntities(shard, entityType, folder), urn, folders, folder], ['HDEL', keys.browseNames(shard, entityType, folder), urn])
  }
  for (const [folder, name] of now.listed) {
    if (old.listed.get(folder) === name) continue
    ops.push(['ZLINK', keys.browseEntities(shard, entityType, folder), '0', urn, folders, folder], ['HSET', keys.browseNames(shard, entityType, folder), urn, name])
  }
  return ops
}
