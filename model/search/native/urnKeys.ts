/**
 * A number per document (a double) in the order of the documents' urns, for the copy of the words (wordCopy.ts): its
 * postings order the documents of one score by urn, and placing one there compared urns at each step of a binary
 * search (two strings behind a cache miss or two, ~0.8 us; a dozen per posting and 20-30 postings per write). With
 * keys, a step compares two numbers.
 *
 * Keys are spaced GAP apart when made for many documents at once; a document added later takes the middle of its
 * neighbours' keys (found by its urn among those keyed: a sorted list, with a short sorted list of the latest
 * additions beside it, merged into it now and then). When a middle can no longer be told from its ends, every
 * document is keyed again, GAP apart, in the same order: orders built on keys stay valid.
 */
import { lowerBound } from './sortedEntries.ts'

const GAP = 2 ** 20
/**
 * Latest additions kept apart before they are merged into the sorted list: at least this many, or a sixty-fourth of
 * the list (as sortedEntries.ts merges), so that a load of new documents at 1,000,000 does not rebuild the whole list
 * every few hundred.
 */
const PENDING_MOST = 512

export class UrnKeys {
  /** By document number; NaN for none. */
  private keys = new Float64Array(1024).fill(NaN)
  /** Urns keyed, sorted, their documents and keys beside them (entries of documents since gone or re-keyed stay until the next merge). */
  private urns: string[] = []
  private numbers: number[] = []
  private keyed: number[] = []
  /** The latest additions, sorted likewise. */
  private pendingUrns: string[] = []
  private pendingNumbers: number[] = []
  private pendingKeys: number[] = []
  /** A document's urn now (an entry whose document has another urn, or none, is stale). */
  private readonly urnOf: (number: number) => string | undefined

  constructor(urnOf: (number: number) => string | undefined) {
    this.urnOf = urnOf
  }

  /** Document `number`'s key (NaN when it has none). */
  keyOf(number: number): number {
    return number < this.keys.length ? this.keys[number]! : NaN
  }

  /** Keys for `documents` (number, urn), made at once in their urns' order: every earlier key is dropped. */
  build(documents: readonly (readonly [number, string])[]): void {
    // Sorted without a comparator (by code units, natively: a comparator called back a million times took seconds).
    const numberOf = new Map(documents.map(([n, urn]) => [urn, n]))
    this.urns = documents.map((d) => d[1]).sort()
    this.numbers = this.urns.map((urn) => numberOf.get(urn)!)
    this.keyed = this.urns.map((_, i) => i * GAP)
    this.pendingUrns = []
    this.pendingNumbers = []
    this.pendingKeys = []
    let most = 1024
    for (const n of this.numbers) most = Math.max(most, n + 1)
    this.keys = new Float64Array(most).fill(NaN)
    this.numbers.forEach((n, i) => { this.keys[n] = this.keyed[i]! })
  }

  /** Gives document `number`, of `urn`, its key (call when it is new, or its urn changed). */
  add(number: number, urn: string): void {
    let key = this.between(urn)
    if (key === undefined) {
      this.rekey()
      key = this.between(urn)!
    }
    if (number >= this.keys.length) {
      const keys = new Float64Array(Math.max(number + 1, 2 * this.keys.length)).fill(NaN)
      keys.set(this.keys)
      this.keys = keys
    }
    this.keys[number] = key
    const at = lowerBound(this.pendingUrns, urn)
    this.pendingUrns.splice(at, 0, urn)
    this.pendingNumbers.splice(at, 0, number)
    this.pendingKeys.splice(at, 0, key)
    if (this.pendingUrns.length > Math.max(PENDING_MOST, this.urns.length / 64)) this.merge()
  }

  /**
   * A key strictly between those of `urn`'s neighbours, or undefined when there is no room left. Urns often arrive
   * in order (`table_0041`, `table_0042`... between two older ones): a key next to a neighbour added since the last
   * merge leaves most of the room on the side the next one will come from (a sixty-fourth of the gap from it, rather
   * than half: ~1,400 such additions in one gap, not ~30, before all are keyed again).
   */
  private between(urn: string): number | undefined {
    const a = lowerBound(this.urns, urn)
    const b = lowerBound(this.pendingUrns, urn)
    const keyedBelow = a > 0 ? this.keyed[a - 1]! : -GAP
    const pendingBelow = b > 0 ? this.pendingKeys[b - 1]! : -GAP
    const lastKey = Math.max(this.keyed.length > 0 ? this.keyed[this.keyed.length - 1]! : 0, this.pendingKeys.length > 0 ? this.pendingKeys[this.pendingKeys.length - 1]! : 0)
    const keyedAbove = a < this.urns.length ? this.keyed[a]! : lastKey + 2 * GAP
    const pendingAbove = b < this.pendingUrns.length ? this.pendingKeys[b]! : lastKey + 2 * GAP
    const below = Math.max(keyedBelow, pendingBelow)
    const above = Math.min(keyedAbove, pendingAbove)
    const recentBelow = b > 0 && pendingBelow > keyedBelow
    const recentAbove = b < this.pendingUrns.length && pendingAbove < keyedAbove
    const key = recentBelow && !recentAbove ? below + (above - below) / 64
      : recentAbove && !recentBelow ? above - (above - below) / 64
        : below + (above - below) / 2
    return key > below && key < above ? key : undefined
  }

  /** The latest additions merged into the sorted list, stale entries dropped. */
  private merge(): void {
    const total = this.urns.length + this.pendingUrns.length
    const urns: string[] = new Array(total)
    const numbers: number[] = new Array(total)
    const keyed: number[] = new Array(total)
    let out = 0
    const keep = (urn: string, number: number, key: number) => {
      if (this.urnOf(number) !== urn || this.keys[number] !== key) return
      urns[out] = urn
      numbers[out] = number
      keyed[out++] = key
    }
    // Each addition's place found by a binary search, the runs between them copied (a few urns compared per
    // addition, not one per entry of the list).
    let i = 0
    for (let j = 0; j <= this.pendingUrns.length; j++) {
      const until = j < this.pendingUrns.length ? lowerBound(this.urns, this.pendingUrns[j]!, i) : this.urns.length
      for (; i < until; i++) keep(this.urns[i]!, this.numbers[i]!, this.keyed[i]!)
      if (j < this.pendingUrns.length) keep(this.pendingUrns[j]!, this.pendingNumbers[j]!, this.pendingKeys[j]!)
    }
    urns.length = numbers.length = keyed.length = out
    this.urns = urns
    this.numbers = numbers
    this.keyed = keyed
    this.pendingUrns = []
    this.pendingNumbers = []
    this.pendingKeys = []
  }

  /** Every document keyed again, GAP apart, in the same order. */
  private rekey(): void {
    this.merge()
    this.keyed = this.keyed.map((_, i) => i * GAP)
    this.numbers.forEach((n, i) => { this.keys[n] = this.keyed[i]! })
  }
}
