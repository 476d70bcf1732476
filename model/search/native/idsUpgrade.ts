/**
 * Bringing a native index of format 3 (a posting per urn id) to format 4 in place: every URN field's `ids:` list
 * (documentOps.ts) is made from the field's lexicon (`vals:`), a page of STEP values per command, so that values
 * are found by their id without a rebuild. The postings of ids the older format wrote are no longer read (`restore
 * --rebuild` removes them). Writes that run meanwhile keep the lists themselves (IDLINK); a value read here and
 * removed before its entry is added leaves an entry that names no posting, which matches nothing.
 */
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import { lexRange } from '../../store/lexRange.ts'
import type { RedisClient } from '../../store/redis.ts'
import { idEntry } from './entries.ts'

const STEP = 1000

/** Makes every URN field's ids list from its lexicon, in every shard; answers how many entries were listed. */
export async function listIdsFromLexicons(redis: RedisClient, keys: Keys, registry: Registry): Promise<number> {
  let listed = 0
  for (const entity of registry.entities) {
    const fields = [...registry.searchFields(entity).values()].filter((f) => f.type === 'URN' && f.name !== 'urn')
    for (const field of fields) {
      // The shards at once (on a cluster, several nodes).
      await Promise.all(keys.allShards().map(async (shard) => {
        const vals = keys.nativeIndex(shard, entity.name, 'vals', field.name)
        const ids = keys.nativeIndex(shard, entity.name, 'ids', field.name)
        for (let after: string | undefined; ;) {
          const page = await lexRange(redis, vals, after, STEP, false)
          const entries = page.flatMap((lower) => idEntry(lower) ?? [])
          if (entries.length > 0) listed += await redis.zadd(ids, ...entries.flatMap((e) => ['0', e]))
          if (page.length < STEP) break
          after = page[page.length - 1]
        }
      }))
    }
  }
  return listed
}
