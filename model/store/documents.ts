/**
 * The stored search documents (a document hash's `d`: field -> values, as JSON) of a page of results, read with one
 * script call per shard (scripts/documents.lua) rather than an HGET per urn: ioredis's work is per command, and a
 * page of 10 documents cost the gateway ~50 us of CPU as 10 commands against ~20 us as one call, Redis about the
 * same either way (a shard's single document is an HGET: a script call costs Redis more than one command).
 */
import { positionsBy } from '../positions.ts'
import type { Keys } from './keys.ts'
import type { RedisClient } from './redis.ts'
import { LuaScript } from './script.ts'

const documentsScript = new LuaScript(import.meta.url, './scripts/documents.lua')

/** The documents of `urns` (of type `entityType`), in their order; null for a urn without one. */
export async function readDocuments(redis: RedisClient, keys: Keys, entityType: string, urns: readonly string[]): Promise<(string | null)[]> {
  const out: (string | null)[] = new Array(urns.length).fill(null)
  await Promise.all([...positionsBy(urns, (urn) => keys.shardOf(urn)).values()].map(async (positions) => {
    const documentKeys = positions.map((i) => keys.doc(entityType, urns[i]!))
    // One document of a shard (a merged page spread over a cluster's shards): a plain HGET costs Redis less.
    const found = documentKeys.length === 1 ? [await redis.hget(documentKeys[0]!, 'd')] : await documentsScript.run(redis, documentKeys, []) as (string | null)[]
    positions.forEach((i, k) => { out[i] = found[k] ?? null })
  }))
  return out
}
