/**
 * Browse reads, on core Redis structures whatever the search engine (written by model/store/planIndex.ts):
 * the entities listed directly at a path, in urn order, with their names, and the next-level groups with the
 * number of entities listed anywhere below each (an entity listed in two folders of one group counts twice).
 */
import type { Redis } from 'ioredis'
import { groupsOf, normalizePath } from '../derive/browse.ts'
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
  const [total, urns, descendants] = await Promise.all([
    redis.zcard(entitiesKey),
    limit > 0 ? redis.zrange(entitiesKey, start, start + limit - 1) : Promise.resolve([] as string[]),
    redis.zrangebylex(keys.browseFolders(entity.name), `[${folder}/`, `[${folder}/\xff`),
  ])
  const pipeline = redis.pipeline()
  if (urns.length > 0) pipeline.hmget(keys.browseNames(entity.name, folder), ...urns)
  for (const path of descendants) pipeline.zcard(keys.browseEntities(entity.name, path))
  const replies = urns.length + descendants.length > 0 ? ((await pipeline.exec()) ?? []).map(([err, v]) => { if (err) throw err; return v }) : []
  const names = urns.length > 0 ? (replies.shift() as (string | null)[]) : []
  const sizes = new Map(descendants.map((path, i) => [path, Number(replies[i])]))
  const groups = [...groupsOf(folder, descendants)]
    .map(([name, paths]) => ({ name, count: paths.reduce((n, p) => n + (sizes.get(p) ?? 0), 0) }))
    .filter((g) => g.count > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { total, entities: urns.map((urn, i) => ({ name: names[i] ?? '', urn })), groups }
}
