/**
 * Bringing a native index of format 5 or 6 (or older, after idsUpgrade.ts and suggestionsUpgrade.ts) to format 7 in
 * place: format 5 kept a posting (`kw:<f>\0<v>`, with its bitmap `bm:kw:<f>\0<v>` once large) and a lexicon entry
 * (`vals:<f>`) for every value of a paired field (names: indexMirror.ts pairedField), format 6 for every value of a
 * free-text field of one value (descriptions) and of a browse path, which format 7 pairs as well; the copies read
 * pairs from the stored documents (`doc:`), so those keys are unlinked (freed by Redis in the background), a page of
 * STEP values per command, then the lexicon itself.
 */
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import { lexRange } from '../../store/lexRange.ts'
import type { RedisClient } from '../../store/redis.ts'
import { pairedField } from './indexMirror.ts'

const STEP = 500

/** Unlinks every paired field's postings, bitmaps and lexicon, in every shard; answers how many values they had. */
export async function dropPairedPostings(redis: RedisClient, keys: Keys, registry: Registry): Promise<number> {
  let dropped = 0
  for (const entity of registry.entities) {
    for (const field of [...registry.searchFields(entity).values()].filter(pairedField)) {
      // The shards at once (on a cluster, several nodes); a shard's keys share its slot, so one UNLINK takes a page.
      await Promise.all(keys.allShards().map(async (shard) => {
        const ix = (kind: string, rest: string) => keys.nativeIndex(shard, entity.name, kind, rest)
        const vals = ix('vals', field.name)
        for (let after: string | undefined; ;) {
          const page = await lexRange(redis, vals, after, STEP, false)
          if (page.length > 0) await redis.unlink(...page.flatMap((v) => [ix('kw', `${field.name}\u0000${v}`), ix('bm', `kw:${field.name}\u0000${v}`)]))
          dropped += page.length
          if (page.length < STEP) break
          after = page[page.length - 1]
        }
        await redis.unlink(vals)
      }))
    }
  }
  return dropped
}
