/**
 * Facet counts of a query on one index, exact, in commands of bounded size: each match's facet line (fields.ts
 * `__facets`: every facet value of the document in one sortable, unindexed field, read from the index's own sort
 * vector, never from the hash) is streamed to us (FT.AGGREGATE ... LOAD 1 @__facets WITHCURSOR, then FT.CURSOR
 * READ), at most CHUNK matches per command, and counted here. A GROUPBY is one blocking step whatever the cursor:
 * grouping 3,500 matches of a word on every facet field at once took 155-260 ms (as many groups as matches: each
 * combination of values is one), on one field 35-55 ms. Loading the facet fields one by one (a sortable tag each)
 * cost ~3 ms per 1,000 matches at 100,000 datasets; the one line ~1.5 ms. Per-shard counts add up.
 * TIMEOUT 0: under the module's default (500 ms, then ON_TIMEOUT return) a busy server returned partial counts
 * (FT.PROFILE showed 97,998 of 100,000 documents grouped on a loaded machine).
 */
import type { Commands } from './companions.ts'
import { FACETS_FIELD, visitFacetLine } from './fields.ts'

/** field -> value (as indexed, original case) -> number of matching documents. */
export type FacetCounts = Map<string, Map<string, number>>

/** Matches per command. */
export const CHUNK = 1000

type CursorReply = [unknown[], number | string]

export async function facetCounts(client: Commands, index: string, query: string, fields: readonly string[], chunk = CHUNK): Promise<FacetCounts> {
  const result: FacetCounts = new Map(fields.map((f) => [f, new Map<string, number>()]))
  if (fields.length === 0) return result
  let reply = (await client.sendCommand(['FT.AGGREGATE', index, query, 'LOAD', '1', `@${FACETS_FIELD}`,
    'WITHCURSOR', 'COUNT', String(chunk), 'TIMEOUT', '0', 'DIALECT', '2'])) as CursorReply
  // Documents that share their facet values share a line: each distinct line is read once.
  const lines = new Map<string, number>()
  for (;;) {
    // A row: [FACETS_FIELD, line] (or nothing, for a document written before the line existed: none are left
    // once the start-up backfill ran, companions.ts).
    for (const row of reply[0].slice(1) as (string | null)[][]) {
      const line = row[1]
      if (line) lines.set(line, (lines.get(line) ?? 0) + 1)
    }
    if (String(reply[1]) === '0') break
    reply = (await client.sendCommand(['FT.CURSOR', 'READ', index, String(reply[1]), 'COUNT', String(chunk)])) as CursorReply
  }
  for (const [line, n] of lines) {
    visitFacetLine(line, (field, value) => {
      const buckets = result.get(field)
      if (buckets) buckets.set(value, (buckets.get(value) ?? 0) + n)
    })
  }
  return result
}

/** `all` minus `outside`, value by value (counts of the matches, from the index's totals and the non-matches'). */
export function subtractCounts(all: FacetCounts, outside: FacetCounts): FacetCounts {
  const result: FacetCounts = new Map()
  for (const [field, buckets] of all) {
    const less = outside.get(field)
    const kept = new Map<string, number>()
    for (const [value, n] of buckets) {
      const left = n - (less?.get(value) ?? 0)
      if (left > 0) kept.set(value, left)
    }
    result.set(field, kept)
  }
  return result
}
