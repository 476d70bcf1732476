/**
 * The distinct values of a tag field of one index (FT.TAGVALS, lower-cased), which string conditions other than
 * EQUAL are resolved against. Listing a field of many values costs milliseconds, so the list is remembered while
 * the index's generation stays the same (memo.ts: exact, a document change makes the next call list again).
 */
import type { Commands } from './companions.ts'
import { GenerationMemo } from './memo.ts'

const memo = new GenerationMemo<string[]>((values) => 1 + Math.ceil(values.length / 16))

export async function tagValues(client: Commands, index: string, field: string): Promise<string[]> {
  return memo.get(client, index, field, async () => (await client.sendCommand(['FT.TAGVALS', index, field])) as string[])
}

const queries = new GenerationMemo<{ query: string | null }>((c) => 1 + Math.ceil((c.query?.length ?? 0) / 1024))

/**
 * A query whose filter's string conditions are resolved against tag values, built once per generation: resolving
 * matches every value of the field and can list thousands of them, and the same query (the same string object)
 * keeps the answer memo's lookup cheap (a string's hash is computed once).
 */
export async function resolvedQuery(client: Commands, index: string, key: string, build: () => Promise<string | null>): Promise<string | null> {
  return (await queries.get(client, index, key, async () => ({ query: await build() }))).query
}
