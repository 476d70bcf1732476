/**
 * The stored search documents (a document hash's `d`: field -> values, as JSON) of a page of results, read with one
 * script call per shard (scripts/documents.lua) rather than an HGET per urn: ioredis's work is per command, and a
 * page of 10 documents cost the gateway ~50 us of CPU as 10 commands against ~20 us as one call, Redis about the
 * same either way (a shard's single document is an HGET: a script call costs Redis more than one command).
 */
import { readByGroup } from '../positions.ts'
import type { Keys } from './keys.ts'
import type { RedisClient } from './redis.ts'
import { LuaScript } from './script.ts'

const documentsScript = new LuaScript(import.meta.url, './scripts/documents.lua')

/** The documents of `urns` (of type `entityType`), in their order; null for a urn without one. */
export async function readDocuments(redis: RedisClient, keys: Keys, entityType: string, urns: readonly string[]): Promise<(string | null)[]> {
  const found = await readByGroup(urns, (urn) => keys.shardOf(urn), async (_shard, group) => {
    const documentKeys = group.map((urn) => keys.doc(entityType, urn))
    // One document of a shard (a merged page spread over a cluster's shards): a plain HGET costs Redis less.
    return documentKeys.length === 1 ? [await redis.hget(documentKeys[0]!, 'd')] : await documentsScript.run(redis, documentKeys, []) as (string | null)[]
  })
  return found.map((document) => document ?? null)
}
