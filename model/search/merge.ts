/**
 * Gathering shards into one answer, pure: hits merged in one global order (relevance descending, then urn
 * ascending), totals and facet counts summed, autocomplete candidates joined. Each shard answers its first
 * start+count hits, so the merged order holds every hit of the page whatever the shard count.
 */
import type { Hit, ShardHits, Suggestion } from './engine.ts'
import { firstK } from './firstK.ts'
import { byCodeUnits, stretchEnd } from './native/sortedEntries.ts'
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
 * The page [start, start+count) of the merged hits of shards whose answers hold the first start+count hits of all
 * (each shard's first start+count, or shardWindows' answers); one shard: its hits, the page it answered itself.
 */
export function mergeHits(shards: readonly ShardHits[], start: number, count: number, facetLimit: number): { total: number; urns: string[]; facets: Facet[] } {
  const total = shards.reduce((n, s) => n + s.total, 0)
  const hits = shards.length === 1 ? shards[0]!.hits : hitsRanked(shards.map((s) => s.hits), start, start + count)
  return { total, urns: hits.map((h) => h.urn), facets: sumFacets(shards.map((s) => s.facets), facetLimit) }
}

/**
 * The first `window` hits of several shards, each asked for its hits by `ask(shard, size)`: each for its share of
 * the window first (gather.ts shareOf: hits are spread over shards by their urn's hash), and only a shard that may
 * hold more before the window's last hit (it sent its whole share, has more, and its last sent comes before that
 * hit) again for the whole window. Every shard answering its first `window` built and sent ~16 times the hits a
 * deep page needs on 16 shards. Answers the shards' answers (the last asked of each), whose merge (hitsRanked,
 * mergeSorted) holds the window.
 */
export async function shardWindows(shards: readonly number[], window: number, ask: (shard: number, size: number) => Promise<ShardHits>): Promise<ShardHits[]> {
  const share = shareOf(window, shards.length)
  const answers = await Promise.all(shards.map((shard) => ask(shard, share)))
  const cut = hitsRanked(answers.map((a) => a.hits), window - 1, window)[0]
  const short = answers.flatMap((a, k) => (a.hits.length === share && a.total > share && (cut === undefined || compareHits(a.hits[share - 1]!, cut) < 0) ? [k] : []))
  if (short.length === 0) return answers
  const again = await Promise.all(short.map((k) => ask(shards[k]!, window)))
  short.forEach((k, i) => { answers[k] = again[i]! })
  return answers
}

/**
 * The hits at ranks [from, to) of the merge of lists each in the global order (mergeSorted(lists, to).slice(from)),
 * without merging the `from` hits before them: the merge begins at a pivot with at most `from` hits before it in
 * all, counted by a binary search in each list. Candidates are the lists' hits at rank floor(from / lists); the
 * first of them in order always qualifies (in each list at most that rank comes before it), about 1.8 standard
 * deviations of the spread below `from`; the one a quarter of the way up the candidates, nearer, is taken when it
 * qualifies too (as gather.ts pageAcross picks its pivot). A deep page of 16 shards (from 2,000) then merges about a
 * hundred hits rather than 2,010, whose urns tie on their scores and share their first 40 characters.
 */
export function hitsRanked(lists: readonly Hit[][], from: number, to: number): Hit[] {
  if (to <= from) return []
  const rank = Math.floor(from / Math.max(lists.length, 1))
  const candidates = rank > 0 ? lists.flatMap((list) => (list.length > rank ? [list[rank]!] : [])).sort(compareHits) : []
  if (candidates.length === 0) return mergeSorted(lists, to).slice(from)
  // Each list's hits before the pivot: a stretch at its start.
  const startsAt = (pivot: Hit) => lists.map((list) => stretchEnd(list, 0, (hit) => hitBefore(hit, pivot)))
  let at = startsAt(candidates[Math.floor((candidates.length - 1) / 4)]!)
  let before = at.reduce((n, i) => n + i, 0)
  if (before > from) {
    at = startsAt(candidates[0]!)
    before = at.reduce((n, i) => n + i, 0)
  }
  const out: Hit[] = []
  let skip = from - before
  mergeOrder(at, lists.map((list) => list.length), (a, b) => hitBefore(lists[a]![at[a]!]!, lists[b]![at[b]!]!), (k) => {
    if (skip > 0) skip--
    else out.push(lists[k]![at[k]!]!)
    return out.length < to - from
  })
  return out
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
