/**
 * Gathering shards into one answer, pure: hits merged in one global order (relevance descending, then urn
 * ascending), totals and facet counts summed, autocomplete candidates joined. Each shard answers its first
 * start+count hits, so the merged order holds every hit of the page whatever the shard count.
 */
import type { Hit, ShardHits, Suggestion } from './engine.ts'
import { firstK } from './firstK.ts'
import { byCodeUnits } from './native/sortedEntries.ts'
import type { Facet } from './types.ts'
import { mergeOrder } from '../mergeOrder.ts'
import { shareOf } from '../store/gather.ts'
import { addTo, bucketsOf, emptyBuckets, type Buckets } from './buckets.ts'

/** The global order: higher score first, then urn ascending (code-unit order, as Redis sorts members). */
export function compareHits(a: Hit, b: Hit): number {
  return b.score - a.score || byCodeUnits(a.urn, b.urn)
}

/** Whether `a` comes before `b` in the global order (compareHits(a, b) < 0, with one comparison of their urns at most). */
export function hitBefore(a: Hit, b: Hit): boolean {
  const d = b.score - a.score
  return d ? d < 0 : a.urn < b.urn
}

/** Facet counts summed per field and value; the `limit` largest values of each field are kept. */
export function sumFacets(lists: readonly Facet[][], limit: number): Facet[] {
  // One shard: nothing to sum; a facet is kept as it is unless it has zeros or more than `limit` values.
  if (lists.length === 1) return lists[0]!.map((f) => (withinLimit(f, limit) ? f : trimmed(f.name, f.aggregations, limit)))
  const byField = new Map<string, Buckets>()
  for (const facets of lists) {
    for (const facet of facets) {
      const sums = byField.get(facet.name) ?? emptyBuckets()
      for (const value in facet.aggregations) addTo(sums, value, facet.aggregations[value]!)
      byField.set(facet.name, sums)
    }
  }
  return [...byField].map(([name, sums]) => trimmed(name, sums, limit))
}

/** A facet of the counts above 0 of `counts`, the `limit` largest (topValues). */
function trimmed(name: string, counts: Buckets, limit: number): Facet {
  return { name, aggregations: bucketsOf(topValues(Object.entries(counts).filter(([, n]) => n > 0), limit)) }
}

/**
 * The `limit` largest of (value, count) pairs, in upstream's order of a facet's buckets: count descending, then the
 * value (by its lower case, as both engines key values, then as written). Every engine and path keeps the same
 * values when counts tie at the limit.
 */
export function topValues(entries: readonly [string, number][], limit: number): [string, number][] {
  const keyed = entries.map(([value, count]) => ({ value, count, lower: value.toLowerCase() }))
  return firstK(keyed, limit, (a, b) => b.count - a.count || byCodeUnits(a.lower, b.lower) || byCodeUnits(a.value, b.value))
    .map(({ value, count }): [string, number] => [value, count])
}

/** Whether every count of `facet` is above 0 and it has at most `limit` values. */
function withinLimit(facet: Facet, limit: number): boolean {
  let n = 0
  for (const value in facet.aggregations) if (!(facet.aggregations[value]! > 0) || ++n > limit) return false
  return true
}

/**
 * The page [start, start+count) of the merged hits of shards that each answered their first start+count, or of
 * `first`, the first start+count of them merged already (shardWindows).
 */
export function mergeHits(shards: readonly ShardHits[], start: number, count: number, facetLimit: number, first?: readonly Hit[]): { total: number; urns: string[]; facets: Facet[] } {
  const total = shards.reduce((n, s) => n + s.total, 0)
  const hits = shards.length === 1 ? shards[0]!.hits : (first ?? mergeSorted(shards.map((s) => s.hits), start + count)).slice(start)
  return { total, urns: hits.map((h) => h.urn), facets: sumFacets(shards.map((s) => s.facets), facetLimit) }
}

/**
 * The first `window` hits of several shards, each asked for its hits by `ask(shard, size)`: each for its share of
 * the window first (gather.ts shareOf: hits are spread over shards by their urn's hash), and only a shard that may
 * hold more before the window's last hit (it sent its whole share, has more, and its last sent comes before that
 * hit) again for the whole window. Every shard answering its first `window` built and sent ~16 times the hits a
 * deep page needs on 16 shards. Answers the shards' answers (the last asked of each) and the merged window.
 */
export async function shardWindows(shards: readonly number[], window: number, ask: (shard: number, size: number) => Promise<ShardHits>): Promise<{ answers: ShardHits[]; first: Hit[] }> {
  const share = shareOf(window, shards.length)
  const answers = await Promise.all(shards.map((shard) => ask(shard, share)))
  let first = mergeSorted(answers.map((a) => a.hits), window)
  const cut = first.length === window ? first[window - 1] : undefined
  const short = answers.flatMap((a, k) => (a.hits.length === share && a.total > share && (cut === undefined || compareHits(a.hits[share - 1]!, cut) < 0) ? [k] : []))
  if (short.length === 0) return { answers, first }
  const again = await Promise.all(short.map((k) => ask(shards[k]!, window)))
  short.forEach((k, i) => { answers[k] = again[i]! })
  first = mergeSorted(answers.map((a) => a.hits), window)
  return { answers, first }
}

/** The first `take` hits of lists each already in the global order (mergeOrder.ts). */
export function mergeSorted(lists: readonly Hit[][], take: number): Hit[] {
  const out: Hit[] = []
  if (take <= 0) return out
  const at = lists.map(() => 0)
  const head = (k: number): Hit => lists[k]![at[k]!]!
  // A deep page's merge (16 shards, 5,010 hits) compares urns that share their first 40-50 code units ~40,000 times.
  mergeOrder(at, lists.map((list) => list.length), (a, b) => hitBefore(head(a), head(b)), (k) => {
    out.push(head(k))
    return out.length < take
  })
  return out
}

/** Autocomplete candidates of every shard, one per distinct value (a whole-value match wins). */
export function mergeSuggestions(lists: readonly Suggestion[][]): Suggestion[] {
  const found = new Map<string, boolean>()
  for (const list of lists) for (const s of list) found.set(s.text, (found.get(s.text) ?? false) || s.whole)
  return [...found].map(([text, whole]) => ({ text, whole }))
}
