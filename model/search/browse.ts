/**
 * Browse reads, on core Redis structures whatever the search engine (written by model/store/planIndex.ts), gathered
 * from every shard: the entities listed directly at a path, in urn order, with their names, and the next-level
 * groups with the number of entities listed anywhere below each (an entity listed in two folders of one group
 * counts twice).
 */
import { groupsOf, normalizePath } from '../derive/browse.ts'
import type { EntitySpec } from '../entities.ts'
import type { Keys } from '../store/keys.ts'
import { mergeOrdered } from '../store/gather.ts'
import type { RedisClient } from '../store/redis.ts'

export interface BrowseResult {
  total: number
  entities: { name: string; urn: string }[]
  groups: { name: string; count: number }[]
}

/** One shard's part: how many entities sit at the folder, its first ones, and the folder sizes below it. */
async function shardPart(redis: RedisClient, keys: Keys, shard: number, type: string, folder: string, from: number, size: number) {
  const entitiesKey = keys.browseEntities(shard, type, folder)
  const [total, urns, descendants] = await Promise.all([
    redis.zcard(entitiesKey),
    size > 0 ? redis.zrange(entitiesKey, from, from + size - 1) : Promise.resolve([] as string[]),
    redis.zrangebylex(keys.browseFolders(shard, type), `[${folder}/`, `[${folder}/\xff`),
  ])
  const sizes = await Promise.all(descendants.map((path) => redis.zcard(keys.browseEntities(shard, type, path))))
  return { total, urns, sizes: new Map(descendants.map((path, i) => [path, sizes[i]!])) }
}

export async function browse(redis: RedisClient, keys: Keys, entity: EntitySpec, path: string, start: number, limit: number): Promise<BrowseResult> {
  const folder = normalizePath(path)
  const single = keys.shards === 1
  const parts = await Promise.all(keys.allShards().map((shard) =>
    shardPart(redis, keys, shard, entity.name, folder, single ? start : 0, single ? limit : start + limit)))
  const urns = single ? parts[0]!.urns : mergeOrdered(parts.map((p) => p.urns)).slice(start, start + limit)
  const names = await Promise.all(urns.map((urn) => redis.hget(keys.browseNames(keys.shardOf(urn), entity.name, folder), urn)))
  const sizes = new Map<string, number>()
  for (const part of parts) for (const [p, n] of part.sizes) sizes.set(p, (sizes.get(p) ?? 0) + n)
  const groups = [...groupsOf(folder, [...sizes.keys()].sort())]
    .map(([name, paths]) => ({ name, count: paths.reduce((n, p) => n + (sizes.get(p) ?? 0), 0) }))
    .filter((g) => g.count > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return {
    total: parts.reduce((n, p) => n + p.total, 0),
    entities: urns.map((urn, i) => ({ name: names[i] ?? '', urn })),
    groups,
  }
}
