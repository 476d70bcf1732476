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
 * The same stream can list each match's urn and relevance as well: a query matching at most half of its index is
 * then ranked from it (shard.ts), with no pass of the module's own to rank or sort.
 */
import type { Hit } from '../engine.ts'
import type { Commands } from './companions.ts'
import { FACETS_FIELD, visitFacetLine } from './fields.ts'
import { QUERY_OPTIONS, queryArgs } from './query.ts'

/** field -> value (as indexed, original case) -> number of matching documents. */
export type FacetCounts = Map<string, Map<string, number>>

/**
 * Matches per command: each holds Redis's thread for its chunk, ~1.5 ms per 1,000 matches on a quiet server and
 * ~3.6 ms under the live benchmark's load, while every other client waits. Measured at 100,000 datasets (one
 * 60-second live run each, in pairs of the same conditions): 1,000 against 250, commands over 20 ms 95 -> 40 and
 * queries/s 59.8 -> 56.4, the kinds with thousands of matches (a word, its deep pages, a prefix) slower at p50 by a
 * third, the others faster; 1,000 against 500 (a garbage collection in both runs), queries/s 31.5 -> 32.2, p50 lower
 * for 9 kinds of 12, a word the same, its deep pages and a prefix slower.
 */
export const CHUNK = 500

type CursorReply = [unknown[], number | string]

/** What a stream reads of each match besides its facet line: nothing, its urn, or its urn and relevance (DISMAX). */
export type StreamedHits = 'none' | 'urn' | 'scored'

export interface Streamed {
  facets: FacetCounts
  /** Every match, in no order (none unless asked for): its urn and score (0 unless `scored`). */
  hits: Hit[]
}

/**
 * Streams every match of `query` once, a chunk per command, counting the facet values of `fields` here, and when
 * asked, listing each match's urn (a sortable field, read from the index like the line) and relevance (ADDSCORES,
 * RediSearch 2.10+: the module's error names ADDSCORES on older ones).
 */
export async function streamMatches(client: Commands, index: string, query: string, fields: readonly string[], hits: StreamedHits, chunk = CHUNK): Promise<Streamed> {
  const result: FacetCounts = new Map(fields.map((f) => [f, new Map<string, number>()]))
  const listed: Hit[] = []
  if (fields.length === 0 && hits === 'none') return { facets: result, hits: listed }
  const load = hits === 'none' ? ['LOAD', '1', `@${FACETS_FIELD}`] : ['LOAD', '2', `@${FACETS_FIELD}`, '@urn']
  let reply = (await client.sendCommand(['FT.AGGREGATE', ...queryArgs(index, query), ...(hits === 'scored' ? ['ADDSCORES', 'SCORER', 'DISMAX'] : []), ...load,
    'WITHCURSOR', 'COUNT', String(chunk), ...QUERY_OPTIONS])) as CursorReply
  // Documents that share their facet values share a line: each distinct line is read once.
  const lines = new Map<string, number>()
  for (;;) {
    // A row: field, value, ... (the line is missing for a document written before it existed: none are left
    // once the start-up backfill ran, companions.ts).
    for (const row of reply[0].slice(1) as (string | null)[][]) {
      let line: string | null = null
      let urn = ''
      let score = 0
      for (let i = 0; i + 1 < row.length; i += 2) {
        const name = row[i]
        if (name === FACETS_FIELD) line = row[i + 1]!
        else if (name === 'urn') urn = row[i + 1]!
        else if (name === '__score') score = Number(row[i + 1])
      }
      if (line) lines.set(line, (lines.get(line) ?? 0) + 1)
      if (hits !== 'none') listed.push({ urn, score })
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
  return { facets: result, hits: listed }
}

/** The facet counts of a query's matches (a stream of their facet lines). */
export async function facetCounts(client: Commands, index: string, query: string, fields: readonly string[], chunk = CHUNK): Promise<FacetCounts> {
  return (await streamMatches(client, index, query, fields, 'none', chunk)).facets
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
