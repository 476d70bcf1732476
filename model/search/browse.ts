/**
 * Browse reads, on core Redis structures whatever the search engine (written by model/store/planIndex.ts), gathered
 * from every shard: the entities listed directly at a path, in urn order, with their names, and the next-level
 * groups with the number of entities listed anywhere below each (an entity listed in two folders of one group
 * counts twice).
 */
import { groupsOf, normalizePath } from '../derive/browse.ts'
import type { EntitySpec } from '../entities.ts'
import { readByGroup } from '../positions.ts'
import type { Keys } from '../store/keys.ts'
import { pageAcross } from '../store/gather.ts'
import { sortedSetOf } from '../store/orderedSets.ts'
import type { RedisClient } from '../store/redis.ts'

export interface BrowseResult {
  total: number
  entities: { name: string; urn: string }[]
  groups: { name: string; count: number }[]
}

/** One shard's folder sizes below `folder`: each descendant folder's path and number of entities. */
async function shardSizes(redis: RedisClient, keys: Keys, shard: number, type: string, folder: string): Promise<Map<string, number>> {
  const descendants = await redis.zrangebylex(keys.browseFolders(shard, type), `[${folder}/`, `[${folder}/\xff`)
  const sizes = await Promise.all(descendants.map((path) => redis.zcard(keys.browseEntities(shard, type, path))))
  return new Map(descendants.map((path, i) => [path, sizes[i]!]))
}

export async function browse(redis: RedisClient, keys: Keys, entity: EntitySpec, path: string, start: number, limit: number): Promise<BrowseResult> {
  const folder = normalizePath(path)
  // The entities at the folder: a page of every shard's ordered set of them (a deep one without each shard sending
  // its first start+limit: gather.ts pageAcross).
  const sets = keys.allShards().map((shard) => sortedSetOf((args) => redis.call(args[0]!, ...args.slice(1)), keys.browseEntities(shard, entity.name, folder)))
  const [page, parts] = await Promise.all([
    pageAcross(sets, start, limit),
    Promise.all(keys.allShards().map((shard) => shardSizes(redis, keys, shard, entity.name, folder))),
  ])
  const urns = page.members
  // The page's names: one HMGET per shard the page touches (a command per urn cost the gateway a command's work each).
  const names = await readByGroup(urns, (urn) => keys.shardOf(urn), (shard, group) => redis.hmget(keys.browseNames(shard, entity.name, folder), ...group))
  const sizes = new Map<string, number>()
  for (const part of parts) for (const [p, n] of part) sizes.set(p, (sizes.get(p) ?? 0) + n)
  const groups = [...groupsOf(folder, [...sizes.keys()].sort())]
    .map(([name, paths]) => ({ name, count: paths.reduce((n, p) => n + (sizes.get(p) ?? 0), 0) }))
    .filter((g) => g.count > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return {
    total: page.total,
    entities: urns.map((urn, i) => ({ name: names[i] ?? '', urn })),
    groups,
  }
}
