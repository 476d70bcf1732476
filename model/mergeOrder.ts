/**
 * Merging lists that are each in order, pure: the order in which to take their items, the lists' heads kept in a
 * heap, so that each item taken costs a few comparisons (log2 of the lists) rather than one per list (a deep page's
 * 16 lists of 2,010 hits, whose urns tie on their scores and share their first 40 characters, took ~30,000
 * comparisons of urns that way). The shards' hits (search/merge.ts), a prefix's postings (search/native/wordQuery.ts)
 * and the shards' ordered sets (store/gather.ts) are merged this way.
 */

/**
 * Calls `take(k)` with the list whose head comes first, item after item, until the lists run out or `take` answers
 * false. `at[k]` is list k's head, moved on here once `take` has had it; `lengths[k]` is the list's length;
 * `before(a, b)` tells whether list a's head comes before list b's.
 */
export function mergeOrder(at: number[], lengths: ArrayLike<number>, before: (a: number, b: number) => boolean, take: (k: number) => boolean): void {
  const heap: number[] = []
  for (let k = 0; k < lengths.length; k++) if (at[k]! < lengths[k]!) heap.push(k)
  let n = heap.length
  // The list at `i` moves down to where it belongs, the lists it passes moving up into the hole it leaves: one write
  // a level, no pair swapped (swapping by destructuring made the whole merge about half again as slow).
  const down = (i: number): void => {
    const k = heap[i]!
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) break
      const c = l + 1 < n && before(heap[l + 1]!, heap[l]!) ? l + 1 : l
      if (!before(heap[c]!, k)) break
      heap[i] = heap[c]!
      i = c
    }
    heap[i] = k
  }
  for (let i = (n >> 1) - 1; i >= 0; i--) down(i)
  while (n > 0) {
    const k = heap[0]!
    if (!take(k)) return
    at[k] = at[k]! + 1
    // A list that ran out: the heap's last takes its place.
    if (at[k]! >= lengths[k]!) heap[0] = heap[--n]!
    if (n > 0) down(0)
  }
}
