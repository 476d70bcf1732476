/**
 * Browse reads, on core Redis structures whatever the search engine (written by model/store/planIndex.ts):
 * the entities listed directly at a path, in urn order, with their names, and the next-level groups with counts.
 */
import type { Redis } from 'ioredis'
import { normalizePath } from '../derive/browse.ts'
import type { EntitySpec } from '../entities.ts'
import type { Keys } from '../store/keys.ts'

export interface BrowseResult {
  total: number
  entities: { name: string; urn: string }[]
  groups: { name: string; count: number }[]
}

export async function browse(redis: Redis, keys: Keys, entity: EntitySpec, path: string, start: number, limit: number): Promise<BrowseResult> {
  const folder = normalizePath(path)
  const entitiesKey = keys.browseEntities(entity.name, folder)
  const [total, urns, groupNames] = await Promise.all([
    redis.zcard(entitiesKey),
    limit > 0 ? redis.zrange(entitiesKey, start, start + limit - 1) : Promise.resolve([] as string[]),
    redis.zrange(keys.browseGroups(entity.name, folder), 0, -1),
  ])
  const pipeline = redis.pipeline()
  if (urns.length > 0) pipeline.hmget(keys.browseNames(entity.name, folder), ...urns)
  for (const group of groupNames) pipeline.scard(keys.browseGroupMembers(entity.name, folder, group))
  const replies = groupNames.length + urns.length > 0 ? ((await pipeline.exec()) ?? []).map(([err, v]) => { if (err) throw err; return v }) : []
  const names = urns.length > 0 ? (replies.shift() as (string | null)[]) : []
  const groups = groupNames.map((name, i) => ({ name, count: Number(replies[i]) })).filter((g) => g.count > 0)
  return { total, entities: urns.map((urn, i) => ({ name: names[i] ?? '', urn })), groups }
}
