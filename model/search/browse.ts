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
  const [total, urns, groupReply] = await Promise.all([
    redis.zcard(entitiesKey),
    limit > 0 ? redis.zrange(entitiesKey, start, start + limit - 1) : Promise.resolve([] as string[]),
    redis.zrange(keys.browseGroups(entity.name, folder), 0, -1, 'WITHSCORES'),
  ])
  const names = urns.length > 0 ? await redis.hmget(keys.browseNames(entity.name, folder), ...urns) : []
  const groups: { name: string; count: number }[] = []
  for (let i = 0; i < groupReply.length; i += 2) groups.push({ name: groupReply[i]!, count: Number(groupReply[i + 1]) })
  groups.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { total, entities: urns.map((urn, i) => ({ name: names[i] ?? '', urn })), groups }
}
