/**
 * Strings kept in code-unit order while they keep changing, read in order from any point (lexiconCopy.ts: the
 * END_WITH order; pairsCopy.ts: the order of a name's pairs for START_WITH and ranges, and of their urns). Most
 * entries are in one sorted array; the latest additions wait in a short sorted list, and removals are marked by
 * position, until together they exceed a sixty-fourth of the entries (at least MIN_PENDING): then one pass merges
 * them. An insertion into the large array itself moves half of it on average, which a load of a million names would
 * have paid a million times; here each change costs a binary search and a move within the short list, and the
 * merges about 64 entry moves per change.
 */
import { insertAt } from '../firstK.ts'

/** Changes that may wait before a merge, at least. */
const MIN_PENDING = 1024

/** Told of every change of the merged array (stretchCounts.ts keeps counts by its positions). */
export interface SortedObserver {
  /** The entry at position `i` of the merged array was marked removed (`removed`), or kept again. */
  marked(i: number, removed: boolean): void
  /** The waiting changes were merged: every position may have moved. */
  merged(): void
}

/** A stretch of the order: positions [begin, end) of the merged array, and the waiting additions in it. */
export interface Stretch { begin: number; end: number; pending: string[] }

export class SortedEntries {
  private sorted: string[]
  /** Additions not merged yet, sorted. */
  private pending: string[] = []
  /** Per entry of `sorted`, 1 once removed (until the next merge), and how many are. */
  private removed: Uint8Array
  private removals = 0
  /** Each entry's number (numberOf), beside `sorted`: read without reading the entries (numbersWithin). */
  private readonly numberOf?: (entry: string) => number
  private numbers?: Int32Array
  observer?: SortedObserver

  /** `numberOf`: a number each entry carries (a document's), kept beside the entries for numbersWithin. */
  constructor(entries: string[], numberOf?: (entry: string) => number) {
    this.numberOf = numberOf
    this.sorted = entries.sort(byCodeUnits)
    this.removed = new Uint8Array(this.sorted.length)
    this.numbers = numberOf && Int32Array.from(this.sorted, numberOf)
  }

  add(entry: string): void {
    const i = lowerBound(this.sorted, entry)
    if (this.sorted[i] === entry) {
      if (this.removed[i] === 1) {
        this.removed[i] = 0
        this.removals--
        this.observer?.marked(i, false)
      }
      return
    }
    const at = lowerBound(this.pending, entry)
    if (this.pending[at] === entry) return
    this.pending.splice(at, 0, entry)
    this.settle()
  }

  delete(entry: string): void {
    const at = lowerBound(this.pending, entry)
    if (this.pending[at] === entry) {
      this.pending.splice(at, 1)
      return
    }
    const i = lowerBound(this.sorted, entry)
    if (this.sorted[i] !== entry || this.removed[i] === 1) return
    this.removed[i] = 1
    this.removals++
    this.observer?.marked(i, true)
    this.settle()
  }

  /** Visits the entries not below `from` in order, while `visit` answers true. */
  scan(from: string, visit: (entry: string) => boolean): void {
    let i = lowerBound(this.sorted, from)
    let j = lowerBound(this.pending, from)
    for (;;) {
      while (this.removals > 0 && i < this.sorted.length && this.removed[i] === 1) i++
      const a = this.sorted[i]
      const b = this.pending[j]
      if (a === undefined && b === undefined) return
      const next = b === undefined || (a !== undefined && a < b) ? this.sorted[i++]! : this.pending[j++]!
      if (!visit(next)) return
    }
  }

  /**
   * Visits every entry's number (numberOf) in the entries' order, while `visit` answers true: the merged array's are
   * read from beside it, without reading the entries (but to place the waiting additions among them).
   */
  scanNumbers(visit: (number: number) => boolean): void {
    const numbers = this.numbers!
    let j = 0
    for (let i = 0; i < this.sorted.length; i++) {
      if (this.removals > 0 && this.removed[i] === 1) continue
      while (j < this.pending.length && this.pending[j]! < this.sorted[i]!) if (!visit(this.numberOf!(this.pending[j++]!))) return
      if (!visit(numbers[i]!)) return
    }
    while (j < this.pending.length) if (!visit(this.numberOf!(this.pending[j++]!))) return
  }

  /**
   * The numbers (numberOf) of the entries not below `from` for which `within` holds, `within` holding for a stretch
   * of the order from `from` on and for none after it: found by binary searches, and read from the numbers kept beside
   * the entries (the entries themselves are not read, but for the waiting additions).
   */
  numbersWithin(from: string, within: (entry: string) => boolean): Int32Array {
    const numbers = this.numbers!
    const { begin, end, pending } = this.stretch(from, within)
    const out = new Int32Array(end - begin + pending.length)
    let k = 0
    if (this.removals === 0) {
      out.set(numbers.subarray(begin, end))
      k = end - begin
    } else {
      for (let i = begin; i < end; i++) if (this.removed[i] === 0) out[k++] = numbers[i]!
    }
    for (const entry of pending) out[k++] = this.numberOf!(entry)
    return out.subarray(0, k)
  }

  /**
   * The stretch of the entries not below `from` for which `within` holds (as for numbersWithin), found by binary
   * searches: its positions in the merged array (some may be marked removed: isRemoved) and its waiting additions.
   */
  stretch(from: string, within: (entry: string) => boolean): Stretch {
    const begin = lowerBound(this.sorted, from)
    const end = stretchEnd(this.sorted, begin, within)
    const pendingBegin = lowerBound(this.pending, from)
    let pendingEnd = pendingBegin
    while (pendingEnd < this.pending.length && within(this.pending[pendingEnd]!)) pendingEnd++
    return { begin, end, pending: this.pending.slice(pendingBegin, pendingEnd) }
  }

  /** The merged array's length (entries marked removed included). */
  get mergedLength(): number {
    return this.sorted.length
  }

  /** Whether the entry at position `i` of the merged array is marked removed. */
  isRemoved(i: number): boolean {
    return this.removed[i] === 1
  }

  /** The number (numberOf) of the entry at position `i` of the merged array. */
  numberAt(i: number): number {
    return this.numbers![i]!
  }

  /**
   * Merges the waiting changes once they are many, in one pass that keeps the merged entries' numbers as they were
   * (only the waiting additions' are read from them): reading every entry's number again on each merge was most of
   * a load's cost here (100,000 names added one by one to 100,000 pairs: 10.6 s, 2.8 s since, on a busy machine).
   */
  private settle(): void {
    if (this.pending.length + this.removals <= Math.max(MIN_PENDING, this.sorted.length >> 6)) return
    const { sorted, pending, removed, numbers, numberOf } = this
    const length = sorted.length - this.removals + pending.length
    const merged = new Array<string>(length)
    const mergedNumbers = numbers && numberOf ? new Int32Array(length) : undefined
    const skipRemoved = this.removals > 0
    let i = 0
    let k = 0
    // Each waiting addition's place is found by a binary search from the last one's, and the merged entries before it
    // are moved as they are: string comparisons per addition, not per entry (a pairs copy's entries are long urns).
    for (let j = 0; j <= pending.length; j++) {
      const end = j < pending.length ? lowerBound(sorted, pending[j]!, i) : sorted.length
      for (; i < end; i++) {
        if (skipRemoved && removed[i] === 1) continue
        if (mergedNumbers) mergedNumbers[k] = numbers![i]!
        merged[k++] = sorted[i]!
      }
      if (j === pending.length) break
      if (mergedNumbers) mergedNumbers[k] = numberOf!(pending[j]!)
      merged[k++] = pending[j]!
    }
    this.sorted = merged
    this.pending = []
    this.removed = new Uint8Array(length)
    this.removals = 0
    this.numbers = mergedNumbers
    this.observer?.merged()
  }
}

/**
 * The first position from `begin` on of sorted `list` where `within` no longer holds (it holds for a stretch, then
 * not), by a binary search: a pairs copy's stretch, and the hits of a shard before a pivot (search/merge.ts).
 */
export function stretchEnd<T>(list: readonly T[], begin: number, within: (entry: T) => boolean): number {
  let lo = begin
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (within(list[mid]!)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Code-unit order (as `<` compares strings). */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The first `k` of `items` in the order of their `key`s (strings: by code units): a sorted list of the best k so far,
 * which most items pass by one comparison with its last (O(n) for a page of a large result, where sorting them all is
 * O(n log n)).
 */
export function firstInOrder<T, K extends string | number>(items: T[], k: number, key: (item: T) => K): T[] {
  if (k <= 0) return []
  if (4 * k >= items.length) return items.map((item) => [key(item), item] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, k).map((e) => e[1])
  const best: T[] = []
  const keys: K[] = []
  for (const item of items) keepIfFirst(keys, best, k, key(item), item)
  return best
}

/**
 * Keeps `item`, of key `key`, among the first `k` (`best`, their keys beside them in `keys`, in order) when it comes
 * before the last of them (or they are fewer): one comparison for most items, a binary search for the others.
 */
export function keepIfFirst<T, K extends string | number>(keys: K[], best: T[], k: number, key: K, item: T): void {
  if (best.length === k) {
    if (key >= keys[k - 1]!) return
    best.pop()
    keys.pop()
  }
  const at = lowerBound(keys, key)
  insertAt(keys, at, key)
  insertAt(best, at, item)
}


/** The first position of sorted `list` (from `lo` on) whose entry is not below `key`. */
export function lowerBound<K extends string | number>(list: readonly K[], key: K, from = 0): number {
  let lo = from
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}
