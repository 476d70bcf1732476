/**
 * Scrolling a search to its end with a keyset cursor on urn order: each page is "the first `count` matching urns
 * after the last one answered" (before it, descending), so a scroll reaches every match with no result window,
 * and an entity present for the whole scroll is answered exactly once however writes move others meanwhile (an
 * offset would skip or repeat entities as earlier ones come and go). The scroll id carries the last urn and what
 * the scroll asked (types, query, order); a scroll id sent with another query is refused.
 *
 * The engines are asked through two of their operations: `urnsAfter` (live urns in urn order from a point, a
 * range read of the index's ordered urns) and, for a query that does not match everything, `searchShard` restricted
 * to a chunk of those urns (`urn` EQUAL criterion), so a selective query walks the index in chunks.
 */
import type { EntitySpec } from '../entities.ts'
import { fail } from '../errors.ts'
import type { Keys } from '../store/keys.ts'
import type { SearchEngine } from './engine.ts'
import type { Criterion, FilterGroups, TextQuery } from './types.ts'

export type ScrollOrder = 'ASCENDING' | 'DESCENDING'

/** What a scroll id stands for. */
export interface ScrollState {
  /** The last urn answered (the next page starts after it). */
  after: string
  /** Entity types, query text and order of the scroll (a scroll id answers only the same scroll). */
  types: string[]
  query: string
  order: ScrollOrder
}

/** Urns of a chunk a filtered scroll tests against the query at once. */
const CHUNK = 500

export function encodeScrollId(state: ScrollState): string {
  return Buffer.from(JSON.stringify([state.after, state.types, state.query, state.order])).toString('base64url')
}

/** The cursor of a scroll id, checked against the scroll it is sent with; 400 otherwise. */
export function decodeScrollId(scrollId: string, expected: Omit<ScrollState, 'after'>): string {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'))
  } catch {
    decoded = undefined
  }
  const bad = (message: string) => fail('INVALID_REQUEST', `scrollId ${message}`, [{ path: 'scrollId', message }])
  if (!Array.isArray(decoded) || decoded.length !== 4 || typeof decoded[0] !== 'string') throw bad('is not a scroll id this service answered')
  const [after, types, query, order] = decoded as [string, string[], string, string]
  if (JSON.stringify(types) !== JSON.stringify(expected.types) || query !== expected.query || order !== expected.order) {
    throw bad('belongs to another scroll (entity types, query or sort order differ); start again without scrollId')
  }
  return after
}

/** One entity type a scroll goes over, with the query as parsed for it. */
export interface ScrollTarget {
  entity: EntitySpec
  text: TextQuery
  filter: FilterGroups
}

export interface ScrollRequest {
  targets: readonly ScrollTarget[]
  count: number
  order: ScrollOrder
  /** Start after this urn (undefined: from the first). */
  after?: string
}

const before = (order: ScrollOrder) => (a: string, b: string): number => (order === 'ASCENDING' ? (a < b ? -1 : a > b ? 1 : 0) : (a < b ? 1 : a > b ? -1 : 0))

/** The filter `filter` and "urn is one of `urns`" (added to every `or` group). */
function restrictedTo(filter: FilterGroups, urns: string[]): FilterGroups {
  const criterion: Criterion = { field: 'urn', condition: 'EQUAL', values: urns, negated: false, numeric: false }
  return filter.length === 0 ? [[criterion]] : filter.map((group) => [...group, criterion])
}

/** Up to `count` matching urns of one type in one shard after `after`, in order. */
async function shardPage(engine: SearchEngine, shard: number, { entity, text, filter }: ScrollTarget, req: ScrollRequest): Promise<string[]> {
  const matchAll = text.kind === 'all' && filter.length === 0
  const found: string[] = []
  let cursor = req.after
  for (;;) {
    const want = matchAll ? req.count : CHUNK
    const urns = await engine.urnsAfter(shard, entity, cursor, want, req.order === 'DESCENDING')
    if (matchAll) return urns
    if (urns.length > 0) {
      const query = { entity, text, filter: restrictedTo(filter, urns), start: 0, count: urns.length }
      const hits = new Set((await engine.searchShard(shard, query, 0, urns.length)).hits.map((h) => h.urn))
      for (const urn of urns) {
        if (!hits.has(urn)) continue
        found.push(urn)
        if (found.length === req.count) return found
      }
    }
    if (urns.length < want) return found
    cursor = urns[urns.length - 1]
  }
}

/** One page of a scroll: the next `count` matching urns across the targets and every shard, and whether more may follow. */
export async function scrollPage(engine: SearchEngine, keys: Keys, req: ScrollRequest): Promise<{ urns: string[]; more: boolean }> {
  if (req.count === 0) return { urns: [], more: false }
  const lists = await Promise.all(req.targets.flatMap((target) => keys.allShards().map((shard) => shardPage(engine, shard, target, req))))
  const merged = lists.flat().sort(before(req.order))
  return { urns: merged.slice(0, req.count), more: merged.length > req.count || lists.some((l) => l.length === req.count) }
}
