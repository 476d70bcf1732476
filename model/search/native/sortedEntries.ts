/**
 * Strings kept in code-unit order while they keep changing, read in order from any point (lexiconCopy.ts: the
 * END_WITH order, and the order of a name's pairs for START_WITH and ranges). Most entries are in one sorted array;
 * the latest additions wait in a short sorted list, and removals in a set, until together they exceed a sixty-fourth
 * of the entries (at least MIN_PENDING): then one pass merges them. An insertion into the large array itself moves
 * half of it on average, which a load of a million names would have paid a million times; here each change costs
 * a binary search and a move within the short list, and the merges about 64 entry moves per change.
 */

/** Changes that may wait before a merge, at least. */
const MIN_PENDING = 1024

export class SortedEntries {
  private sorted: string[]
  /** Additions not merged yet, sorted. */
  private pending: string[] = []
  /** Entries of `sorted` removed since the last merge. */
  private readonly removed = new Set<string>()

  constructor(entries: string[]) {
    this.sorted = entries.sort(byCodeUnits)
  }

  add(entry: string): void {
    if (this.removed.delete(entry)) return
    if (has(this.sorted, entry)) return
    const at = lowerBound(this.pending, entry)
    if (this.pending[at] === entry) return
    this.pending.splice(at, 0, entry)
    this.settle()
  }

  delete(entry: string): void {
    const at = lowerBound(this.pending, entry)
    if (this.pending[at] === entry) this.pending.splice(at, 1)
    else if (has(this.sorted, entry)) {
      this.removed.add(entry)
      this.settle()
    }
  }

  /** Visits the entries not below `from` in order, while `visit` answers true. */
  scan(from: string, visit: (entry: string) => boolean): void {
    let i = lowerBound(this.sorted, from)
    let j = lowerBound(this.pending, from)
    for (;;) {
      while (i < this.sorted.length && this.removed.has(this.sorted[i]!)) i++
      const a = this.sorted[i]
      const b = this.pending[j]
      if (a === undefined && b === undefined) return
      const next = b === undefined || (a !== undefined && a < b) ? this.sorted[i++]! : this.pending[j++]!
      if (!visit(next)) return
    }
  }

  /** Merges the waiting changes once they are many. */
  private settle(): void {
    if (this.pending.length + this.removed.size <= Math.max(MIN_PENDING, this.sorted.length >> 6)) return
    const merged: string[] = []
    this.scan('', (entry) => { merged.push(entry); return true })
    this.sorted = merged
    this.pending = []
    this.removed.clear()
  }
}

/** Code-unit order (as `<` compares strings). */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The first `k` of `strings` in code-unit order: a sorted list of the best k so far, which most strings pass by one
 * comparison with its last (O(n) for a page of a large result, where sorting them all is O(n log n)).
 */
export function firstInOrder(strings: string[], k: number): string[] {
  if (k <= 0) return []
  if (4 * k >= strings.length) return strings.sort(byCodeUnits).slice(0, k)
  const best: string[] = []
  for (const s of strings) {
    if (best.length === k) {
      if (s >= best[k - 1]!) continue
      best.pop()
    }
    best.splice(lowerBound(best, s), 0, s)
  }
  return best
}

/** The first position of sorted `list` whose entry is not below `key`. */
export function lowerBound(list: readonly string[], key: string): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

const has = (list: readonly string[], entry: string): boolean => list[lowerBound(list, entry)] === entry
