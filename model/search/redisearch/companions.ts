/**
 * Structures kept beside one RediSearch index, in step with its documents by the same apply script (so they are
 * exact and current, never a cache), for what the module cannot answer without visiting every document:
 *   <index>:live            sorted set, score 0: urns of the index's documents, in urn order (match-all pages)
 *   <index>:fvals:<f>       sorted set (lexicographic): values of facet field f that some document has
 *   <index>:fz:<f>:<value>  sorted set, score 0: urns whose facet field f has the value, in urn order (match-all
 *                           facet counts: ZCARD; the page of the value asked alone: soleFacet.ts)
 *   <index>:sv:<f>          sorted set (lexicographic): the lower-cased TAG values of string field f that some
 *                           document has (the string range conditions read a bounded range of it: ranges.ts)
 *   <index>:sn:<f>          hash: lower-cased TAG value of f -> how many documents have it (a value leaves sv:
 *                           when its count reaches 0)
 *   <index>:co:<f>:<value>  hash: `<f'>\x1f<value'>` -> how many documents have both f = value and f' = value'
 *                           (cooccurrence.ts: the facet counts of one facet value asked alone; 0: none any more)
 *   <index>:gen             hash, field n: bumped by every change of a document (validates memos, see memo.ts)
 * Their names derive from the index name, so an index per shard (its name carrying the shard's hash tag) has its
 * companions in its own slot. The ops of live and facet members are idempotent (restating a document re-adds what
 * was lost); the string lexicons' counts move by the document's own before/after difference (VCOUNT, apply.lua),
 * so restating an unchanged document leaves them, and a full rebuild (`restore --rebuild`) counts them again.
 */
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import type { Op } from '../../store/ops.ts'
import { pairChanges } from './cooccurrence.ts'
import { FACETS_FIELD, facetLine, facetValue, TAG_SEPARATOR } from './fields.ts'

/**
 * Fields of the generation hash marking companions built for the documents that predate them (`companions` marked
 * those of an earlier version, whose facet members were unordered sets).
 */
const BUILT = 'companions-ordered'
const LEXICONS_BUILT = 'lexicons'
const FACET_LINES_BUILT = 'facetlines'
const COOCCURRENCE_BUILT = 'cooccurrence'

export const liveKey = (index: string): string => `${index}:live`
export const generationKey = (index: string): string => `${index}:gen`
export const facetValuesKey = (index: string, field: string): string => `${index}:fvals:${field}`
export const facetMembersKey = (index: string, field: string, value: string): string => `${index}:fz:${field}:${value}`
/** Where an earlier version kept a value's urns (an unordered set): dropped by backfillCompanions. */
const formerFacetMembers = (index: string): string => `${index}:fv:*`
export const stringValuesKey = (index: string, field: string): string => `${index}:sv:${field}`
export const stringCountsKey = (index: string, field: string): string => `${index}:sn:${field}`
export const cooccurrenceKey = (index: string, field: string, value: string): string => `${index}:co:${field}:${value}`

/** Key patterns of the companions of every index under `indexPrefix` (a full rebuild deletes them). */
export function companionPatterns(indexPrefix: string): string[] {
  return [`${indexPrefix}*:live`, `${indexPrefix}*:fvals:*`, `${indexPrefix}*:fz:*`, `${indexPrefix}*:sv:*`, `${indexPrefix}*:sn:*`, `${indexPrefix}*:co:*`]
}

/** The facet fields of an entity type. */
export function facetFieldNames(registry: Registry, entity: EntitySpec): string[] {
  return [...registry.searchFields(entity).values()].filter((f) => f.facet).map((f) => f.name)
}

/** Distinct facet values of a document, as the index's facet tag holds them. */
function facetValues(doc: SearchDocument | null, field: string): Set<string> {
  return new Set((doc?.fields[field] ?? []).map(facetValue))
}

/**
 * Ops moving the companions of `index` from `before` to `after` (either may be null). Without `counts`, the
 * co-occurrence counts stay: the ops are then safe to repeat (restating a document the index holds already).
 */
export function companionOps(index: string, facets: readonly string[], urn: string, before: SearchDocument | null, after: SearchDocument | null, { counts = true } = {}): Op[] {
  const ops: Op[] = [['HINCRBY', generationKey(index), 'n', '1']]
  if (after) ops.push(['ZADD', liveKey(index), '0', urn])
  else if (before) ops.push(['ZREM', liveKey(index), urn])
  const olds: Map<string, Set<string>> = new Map()
  const nows: Map<string, Set<string>> = new Map()
  for (const field of facets) {
    const old = facetValues(before, field)
    const now = facetValues(after, field)
    olds.set(field, old)
    nows.set(field, now)
    for (const v of old) if (!now.has(v)) ops.push(['ZUNLINK', facetMembersKey(index, field, v), urn, facetValuesKey(index, field), v])
    for (const v of now) if (!old.has(v)) ops.push(['ZLINK', facetMembersKey(index, field, v), '0', urn, facetValuesKey(index, field), v])
  }
  if (counts) for (const c of pairChanges(olds, nows)) ops.push(['HINCRBY', cooccurrenceKey(index, c.field, c.value), c.other, String(c.delta)])
  return ops
}

/**
 * Ops moving the string lexicons of `index` from a document's lower-cased TAG values `before` to `after` (fields.ts
 * documentTags). Without `counts`, the values of `after` are listed and no count moves (safe to repeat).
 */
export function lexiconOps(index: string, before: ReadonlyMap<string, ReadonlySet<string>>, after: ReadonlyMap<string, ReadonlySet<string>>, { counts = true } = {}): Op[] {
  const ops: Op[] = []
  for (const field of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(field) ?? new Set<string>()
    const now = after.get(field) ?? new Set<string>()
    const countsKey = stringCountsKey(index, field)
    const valuesKey = stringValuesKey(index, field)
    if (!counts) { for (const v of now) ops.push(['ZADD', valuesKey, '0', v]); continue }
    for (const v of old) if (!now.has(v)) ops.push(['VCOUNT', countsKey, valuesKey, v, '-1'])
    for (const v of now) if (!old.has(v)) ops.push(['VCOUNT', countsKey, valuesKey, v, '1'])
  }
  return ops
}

/** Minimal command interface (node-redis's `sendCommand`), so callers pass whatever client reaches the index's node. */
export interface Commands {
  sendCommand(args: string[]): Promise<unknown>
}

/** The number of documents of the index. */
export async function indexSize(client: Commands, index: string): Promise<number> {
  return Number(await client.sendCommand(['ZCARD', liveKey(index)]))
}

/** Urns `skip` to `window` - 1 of the index in urn order (a match-all page). */
export async function urnWindow(client: Commands, index: string, skip: number, window: number): Promise<string[]> {
  return window > skip ? (await client.sendCommand(['ZRANGE', liveKey(index), String(skip), String(window - 1)])) as string[] : []
}

/**
 * Every facet value's number of documents in the index: field -> original value -> count (values no document has
 * any more are left out). Two pipelined round trips: the values of each field, then one ZCARD per value.
 */
export async function facetTotals(client: Commands, index: string, facets: readonly string[]): Promise<Map<string, Map<string, number>>> {
  const valueLists = (await Promise.all(facets.map((f) => client.sendCommand(['ZRANGE', facetValuesKey(index, f), '0', '-1'])))) as string[][]
  const counts = (await Promise.all(facets.flatMap((f, i) => valueLists[i]!.map((v) => client.sendCommand(['ZCARD', facetMembersKey(index, f, v)]))))) as number[]
  const result = new Map<string, Map<string, number>>()
  let k = 0
  for (const [i, f] of facets.entries()) {
    const buckets = new Map<string, number>()
    for (const v of valueLists[i]!) {
      const n = Number(counts[k++])
      if (n > 0) buckets.set(v, n)
    }
    result.set(f, buckets)
  }
  return result
}

/**
 * Builds the companions of an index whose documents predate them (a store written before they existed, or before
 * a value's urns were kept in order: its unordered sets are dropped first): run at start-up, once per index (a
 * marker in the generation hash says it was done). Every op is idempotent; a document removed while this runs may
 * stay listed until `restore indices` restates it. Returns how many documents it listed.
 */
export async function backfillCompanions(client: Commands, index: string, keyPrefix: string, facets: readonly string[]): Promise<number> {
  if (await client.sendCommand(['HGET', generationKey(index), BUILT])) return 0
  await scanKeys(client, formerFacetMembers(index), async (keys) => { await Promise.all(keys.map((k) => client.sendCommand(['UNLINK', k]))) })
  let listed = 0
  await scanDocuments(client, keyPrefix, ['urn', 'd'], async (rows) => {
    const writes: Promise<unknown>[] = []
    for (const { values: [urn, json] } of rows) {
      if (!urn) continue
      listed++
      writes.push(client.sendCommand(['ZADD', liveKey(index), '0', urn]))
      const fields = JSON.parse(json ?? '{}') as Record<string, string[]>
      for (const f of facets) {
        for (const v of new Set((fields[f] ?? []).map(facetValue))) {
          writes.push(client.sendCommand(['ZADD', facetMembersKey(index, f, v), '0', urn]), client.sendCommand(['ZADD', facetValuesKey(index, f), '0', v]))
        }
      }
    }
    await Promise.all(writes)
  })
  await client.sendCommand(['HSET', generationKey(index), BUILT, '1'])
  await client.sendCommand(['HINCRBY', generationKey(index), 'n', '1'])
  return listed
}

/** Calls `visit` with the keys matching `pattern`, a SCAN step at a time. */
async function scanKeys(client: Commands, pattern: string, visit: (keys: string[]) => Promise<void>): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = (await client.sendCommand(['SCAN', cursor, 'MATCH', pattern, 'COUNT', '1000'])) as [string, string[]]
    cursor = next
    if (keys.length > 0) await visit(keys)
  } while (cursor !== '0')
}

/** Calls `visit` with the documents under `keyPrefix` (their key and the hash `fields`), a SCAN step at a time. */
async function scanDocuments(client: Commands, keyPrefix: string, fields: readonly string[], visit: (rows: { key: string; values: (string | null)[] }[]) => Promise<void>): Promise<void> {
  await scanKeys(client, `${keyPrefix}*`, async (keys) => {
    const rows = (await Promise.all(keys.map((k) => client.sendCommand(['HMGET', k, ...fields])))) as (string | null)[][]
    await visit(keys.map((key, i) => ({ key, values: rows[i]! })))
  })
}

/** Sets a document's facet line only while the document is there and has none (a write since has its own). */
const SET_LINE = `if redis.call('HEXISTS', KEYS[1], 'urn') == 1 then return redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) end return 0`

/**
 * Builds what documents written by an earlier version lack, in one pass over them (once per index, by one process
 * holding a lock that lapses if it dies half-way; each part has its own marker, so a part built before is left):
 *   - the string lexicons of `fields`: every document's TAG values counted here, then the counts and lexicons
 *     written one value per command. Until it is done, ranges of the index miss values;
 *   - the facet line (fields.ts FACETS_FIELD), from the document's `d`, for documents that have none (a 1-line
 *     script, so a document deleted or rewritten meanwhile is left as it is). Until it is done, their facet values
 *     are not counted in the results they match;
 *   - the facet co-occurrence counts (cooccurrence.ts), counted here from each document's facet values, then
 *     written one pair per command. Until its marker is set, a facet value asked alone is answered as any query
 *     (cooccurrenceBuilt).
 * A document written while this runs may be counted twice in the counts (a value then stays listed after its last
 * document leaves, and a pair's count is one too high); `restore --rebuild` counts afresh.
 * Returns how many documents it read.
 */
export async function backfillDocumentParts(client: Commands, index: string, keyPrefix: string, fields: readonly string[], facets: readonly string[]): Promise<number> {
  const [lexiconsBuilt, linesBuilt, pairsBuilt] = (await client.sendCommand(['HMGET', generationKey(index), LEXICONS_BUILT, FACET_LINES_BUILT, COOCCURRENCE_BUILT])) as (string | null)[]
  const lexicons = fields.length > 0 && !lexiconsBuilt
  const lines = facets.length > 0 && !linesBuilt
  const pairs = facets.length > 0 && !pairsBuilt
  if (!lexicons && !lines && !pairs) return 0
  if (await client.sendCommand(['SET', `${index}:partsbuild`, '1', 'NX', 'EX', '600']) === null) return 0
  const counts = new Map(fields.map((f) => [f, new Map<string, number>()]))
  /** co-occurrence key -> pair member -> count. */
  const pairCounts = new Map<string, Map<string, number>>()
  let read = 0
  await scanDocuments(client, keyPrefix, ['urn', FACETS_FIELD, 'd', ...fields], async (rows) => {
    const writes: Promise<unknown>[] = []
    for (const { key, values: [urn, line, json, ...tags] } of rows) {
      if (!urn) continue
      read++
      if (lexicons) {
        fields.forEach((f, i) => {
          const field = counts.get(f)!
          for (const v of new Set((tags[i] ?? '').split(TAG_SEPARATOR).filter((x) => x !== '').map((x) => x.toLowerCase()))) field.set(v, (field.get(v) ?? 0) + 1)
        })
      }
      const doc = (!line || pairs) && json ? JSON.parse(json) as Record<string, string[]> : undefined
      if (lines && !line && doc) writes.push(client.sendCommand(['EVAL', SET_LINE, '1', key, FACETS_FIELD, facetLine(new Map(facets.map((f) => [f, doc[f] ?? []])))]))
      if (pairs && doc) {
        const values = new Map(facets.map((f) => [f, new Set((doc[f] ?? []).map(facetValue))]))
        for (const c of pairChanges(new Map(), values)) {
          const k = cooccurrenceKey(index, c.field, c.value)
          const members = pairCounts.get(k) ?? pairCounts.set(k, new Map()).get(k)!
          members.set(c.other, (members.get(c.other) ?? 0) + c.delta)
        }
      }
    }
    await Promise.all(writes)
  })
  const increments: string[][] = []
  if (lexicons) {
    for (const [field, values] of counts) {
      for (const [v, n] of values) increments.push(['HINCRBY', stringCountsKey(index, field), v, String(n)], ['ZADD', stringValuesKey(index, field), '0', v])
    }
  }
  for (const [k, members] of pairCounts) for (const [m, n] of members) increments.push(['HINCRBY', k, m, String(n)])
  for (let i = 0; i < increments.length; i += 10_000) await Promise.all(increments.slice(i, i + 10_000).map((args) => client.sendCommand(args)))
  await client.sendCommand(['HSET', generationKey(index), ...(lexicons ? [LEXICONS_BUILT, '1'] : []), ...(lines ? [FACET_LINES_BUILT, '1'] : []), ...(pairs ? [COOCCURRENCE_BUILT, '1'] : [])])
  await client.sendCommand(['DEL', `${index}:partsbuild`])
  return read
}

/** Whether the co-occurrence counts of `index` are complete (built for the documents that predate them). */
export async function cooccurrenceBuilt(client: Commands, index: string): Promise<boolean> {
  return await client.sendCommand(['HGET', generationKey(index), COOCCURRENCE_BUILT]) !== null
}
