/**
 * Bringing a store of key layout 2 to layout 3 in place: layout 2 kept a row list per shard (`rows`: `urn SEP
 * aspect` of every latest aspect, six members a dataset), layout 3 an entity list (`entities`: each urn once), from
 * which restore reads the rows (model/services/restoreRows.ts). Each shard's row list is read STEP rows per command,
 * its urns added to the entity list, and then unlinked (freed by Redis in the background). Idempotent: processes
 * starting together each finish it, and a row list written again later (by a process of the version before, still
 * running) is folded in at the next start.
 */
import { SEP, type Keys } from './keys.ts'
import { lexRange } from './lexRange.ts'
import type { RedisClient } from './redis.ts'

const STEP = 2000

/** Folds every shard's row list into its entity list; answers how many rows there were. */
export async function foldRowLists(redis: RedisClient, keys: Keys): Promise<number> {
  const counts = await Promise.all(keys.allShards().map(async (shard) => {
    const rows = keys.rowList(shard)
    if (await redis.exists(rows) === 0) return 0
    let n = 0
    for (let after: string | undefined; ;) {
      const page = await lexRange(redis, rows, after, STEP, false)
      const urns = [...new Set(page.map((row) => row.slice(0, row.indexOf(SEP))))]
      if (urns.length > 0) await redis.zadd(keys.entities(shard), ...urns.flatMap((urn) => ['0', urn]))
      n += page.length
      if (page.length < STEP) break
      after = page[page.length - 1]
    }
    await redis.unlink(rows)
    return n
  }))
  return counts.reduce((a, b) => a + b, 0)
}
