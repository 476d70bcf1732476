/**
 * Bringing a store of key layout 2 to layout 3 in place: layout 2 kept a row list per shard (`rows`: `urn SEP
 * aspect` of every latest aspect, six members a dataset), layout 3 an entity list (`entities`: each urn once), from
 * which restore reads the rows (model/services/restoreRows.ts). Each shard's row list is read STEP rows per command,
 * its urns added to the entity list, and then unlinked (freed by Redis in the background). Idempotent: processes
 * starting together each finish it, and a row list written again later (by a process of the version before, still
 * running) is folded in at the next start. The migration from layout 1 (model/services/migrate.ts) folds the
 * catalogue-wide row list the same way.
 */
import { SEP, type Keys } from './keys.ts'
import { lexRange } from './lexRange.ts'
import type { RedisClient } from './redis.ts'

const STEP = 2000

/**
 * Adds the urn of every row of `rowList` to the entity list `entityList` names for it, one ZADD per list and page;
 * answers how many rows there were. The row list is left as it was.
 */
export async function foldRowList(redis: RedisClient, rowList: string, entityList: (urn: string) => string): Promise<number> {
  let n = 0
  for (let after: string | undefined; ;) {
    const page = await lexRange(redis, rowList, after, STEP, false)
    const byList = new Map<string, Set<string>>()
    for (const row of page) {
      const urn = row.slice(0, row.indexOf(SEP))
      const key = entityList(urn)
      byList.set(key, (byList.get(key) ?? new Set()).add(urn))
    }
    for (const [key, urns] of byList) await redis.zadd(key, ...[...urns].flatMap((urn) => ['0', urn]))
    n += page.length
    if (page.length < STEP) return n
    after = page[page.length - 1]
  }
}

/** Folds every shard's row list into its entity list, then unlinks it; answers how many rows there were. */
export async function foldRowLists(redis: RedisClient, keys: Keys): Promise<number> {
  const counts = await Promise.all(keys.allShards().map(async (shard) => {
    const n = await foldRowList(redis, keys.rowList(shard), () => keys.entities(shard))
    await redis.unlink(keys.rowList(shard))
    return n
  }))
  return counts.reduce((a, b) => a + b, 0)
}
