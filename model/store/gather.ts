/**
 * Gathering what several shards hold into one answer: pure merges, and a page of several ordered sets read through
 * the few reads it is given (orderedSets.ts makes them for sorted sets).
 */
import { mergeOrder } from '../mergeOrder.ts'

/**
 * Merges urn lists that are each in order into one ordered, distinct list (code-unit order, as Redis sorts), its
 * first `limit` at most: the lists' heads kept in order (mergeOrder.ts), so that a page from deep in 16 shards'
 * members costs the members it takes, not a sort of every member sent.
 */
export function mergeOrdered(lists: readonly string[][], limit = Infinity): string[] {
  const out: string[] = []
  if (limit <= 0) return out
  const at = lists.map(() => 0)
  const head = (k: number): string => lists[k]![at[k]!]!
  mergeOrder(at, lists.map((list) => list.length), (a, b) => head(a) < head(b), (k) => {
    const next = head(k)
    if (next === out[out.length - 1]) return true
    out.push(next)
    return out.length < limit
  })
  return out
}

/** A set of distinct members in code-unit order, one per shard, read by rank and from a member on. */
export interface OrderedSet {
  size(): Promise<number>
  /** Up to `count` members from rank `start` (from 0) on. */
  window(start: number, count: number): Promise<string[]>
  /** How many members sort before `member`. */
  countBefore(member: string): Promise<number>
  /** Up to `limit` members from `member` on (included; from the first when undefined). */
  from(member: string | undefined, limit: number): Promise<string[]>
}

/** Pages starting before this are cheaper merged from each set's first start+count members (fewer round trips). */
export const DEEP_PAGE = 100

/**
 * Members [start, start+count) of the union of `sets` (disjoint: each member lives in one shard) in code-unit order,
 * and their total. Merging each set's first start+count members costs O(start) per set (a page from 5,000 of 16
 * shards moved 80,000 members); instead, members spread evenly over shards (they are hashed), so the smallest of
 * the sets' members at rank start/S (S sets) has about `start` members before it in all; counting them exactly
 * (one count per set, O(log n)) tells how many members from it on are wanted (start - before + count), of which
 * each set sends its share (firstFrom): three round trips. The candidate a quarter up is counted first and taken
 * when it has at most `start` members before it (nearly always: the smallest lies ~1.8 standard deviations of the
 * spread below `start`, so a few hundred members would be wanted from it for a page from 3,500 of 8,300); else the
 * smallest is counted, a fourth round trip. Exact whatever the spread. A shallow page (before DEEP_PAGE) takes one
 * round trip (the sets' shares of their first start+count), and one set is read by rank.
 */
export async function pageAcross(sets: readonly OrderedSet[], start: number, count: number): Promise<{ total: number; members: string[] }> {
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0)
  const sizes = Promise.all(sets.map((s) => s.size()))
  if (sets.length === 1) {
    const [[total], members] = await Promise.all([sizes, count > 0 ? sets[0]!.window(start, count) : []])
    return { total: total!, members }
  }
  if (start < DEEP_PAGE) {
    const [all, first] = await Promise.all([sizes, count > 0 ? firstFrom(sets, undefined, undefined, start + count) : []])
    return { total: sum(all), members: first.slice(start) }
  }
  const share = Math.floor(start / sets.length)
  const [all, candidates] = await Promise.all([sizes, Promise.all(sets.map((s) => s.window(share, 1)))])
  const total = sum(all)
  if (start >= total || count <= 0) return { total, members: [] }
  // The quarter candidate, with members hashed over the sets, has at most `start` before it nearly always (a
  // simulation of 16 sets of 8,333 members, pages from 100-5,000: every time); the smallest always has (in each set
  // at most start/S members come before it). Both counted at once, as before, cost a command per set more on every
  // deep page.
  const sorted = candidates.flat().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const countBefore = async (p: string) => sum(await Promise.all(sets.map((s) => s.countBefore(p))))
  let pivot = sorted[Math.floor((sorted.length - 1) / 4)]
  let before = pivot === undefined ? 0 : await countBefore(pivot)
  if (pivot !== undefined && before > start) {
    pivot = sorted[0]!
    before = await countBefore(pivot)
  }
  return { total, members: (await firstFrom(sets, all, pivot, start - before + count)).slice(start - before) }
}

/**
 * Members each of `sets` sets sends first towards `need` members of their union: its share and four standard
 * deviations of it (members are hashed over the sets, so a set's part of any stretch is nearly binomial), at least 2.
 */
export function shareOf(need: number, sets: number): number {
  const share = need / sets
  return Math.min(need, Math.ceil(share + 4 * Math.sqrt(share) + 2))
}

/**
 * The first `need` members of the union of `sets` from `pivot` on (included; from the first when undefined), the
 * sets known empty (`sizes` 0) left out. Each set sends its share (shareOf) rather than all `need`. A set that sent
 * its whole share may hold more members before the cut (the merge's `need`-th, or anywhere when the merge fell
 * short): only such a set is read again, from its last member sent on, for `need` more, so the answer is exact
 * whatever the spread (a further round trip, rare).
 */
async function firstFrom(sets: readonly Pick<OrderedSet, 'from'>[], sizes: readonly number[] | undefined, pivot: string | undefined, need: number): Promise<string[]> {
  const cap = shareOf(need, sets.length)
  const lists = await Promise.all(sets.map((s, k) => (sizes?.[k] === 0 ? Promise.resolve([]) : s.from(pivot, cap))))
  const merged = mergeOrdered(lists, need)
  const cut = merged.length === need ? merged[need - 1]! : undefined
  const short = lists.flatMap((list, k) => (list.length === cap && cap < need && (cut === undefined || list[cap - 1]! < cut) ? [k] : []))
  if (short.length === 0) return merged
  await Promise.all(short.map(async (k) => {
    const list = lists[k]!
    const more = await sets[k]!.from(list[cap - 1], need + 1)
    list.push(...more.slice(more[0] === list[cap - 1] ? 1 : 0))
  }))
  return mergeOrdered(lists, need)
}
