/**
 * Bringing a native index of format 4 to format 5 in place: format 4 kept autocomplete's suggestion entries in Redis
 * (`ac:`, a sorted set per type and shard, ~8 entries a dataset); format 5 reads them from the gateways' copies of
 * the names (pairsCopy.ts), so the sets are unlinked (freed by Redis in the background, `UNLINK`), one per command.
 */
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { RedisClient } from '../../store/redis.ts'

/** Unlinks every type's suggestion entries in every shard; answers how many sets there were. */
export async function dropSuggestionEntries(redis: RedisClient, keys: Keys, registry: Registry): Promise<number> {
  let dropped = 0
  for (const entity of registry.entities) {
    const unlinked = await Promise.all(keys.allShards().map((shard) => redis.unlink(keys.nativeIndex(shard, entity.name, 'ac'))))
    dropped += unlinked.reduce((n, k) => n + k, 0)
  }
  return dropped
}
