/**
 * The first `k` items of a list in an order, pure, without sorting the list: a sorted buffer of at most `k` items,
 * which an item enters only when it comes before the buffer's last (a facet's 20 most frequent of 200 owners: ~200
 * comparisons with the last and a few insertions, where sorting all of them took ~1,500 comparisons and two copies).
 * Items that compare equal keep their order in the list.
 */
export function firstK<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  const out: T[] = []
  if (k <= 0) return out
  for (const item of items) {
    if (out.length === k && compare(item, out[k - 1]!) >= 0) continue
    // After every item that does not come after it (equal ones stay in their order).
    let lo = 0
    let hi = out.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (compare(item, out[mid]!) < 0) hi = mid
      else lo = mid + 1
    }
    if (out.length === k) out.pop()
    insertAt(out, lo, item)
  }
  return out
}

/**
 * Puts `item` at position `at` of `list`, moving the rest up: as `splice(at, 0, item)`, without the empty array of
 * removed items a splice makes.
 */
export function insertAt<T>(list: T[], at: number, item: T): void {
  let k = list.length
  list.push(item)
  for (; k > at; k--) list[k] = list[k - 1]!
  list[at] = item
}
