/**
 * Facet counts of the stretches of a paired field's order (pairsCopy.ts: the pairs of a name's START_WITH or range),
 * kept by blocks of positions of the order's merged array (sortedEntries.ts; blockSize): a stretch is counted by
 * adding the counts of the blocks it covers, each of its two partial blocks from the fewer of its documents inside
 * the stretch (added one by one) or outside it (the block's counts, less those), and the waiting additions one by one.
 * A `name GREATER_THAN` matching half of 100,000 documents costs ~50 blocks' counts rather than 50,000 documents'
 * values read (a cache miss or three each) and a bitmap of them.
 *
 * Exact while every document has at most one pair in the field, which the caller checks (PairsCopy): a document's
 * entry is then in one block, whose counts follow every change of the document's values (FacetListener) and the
 * marking of the entry as removed or kept again (SortedObserver). A document met at two positions stops the counts
 * until they are made again. They are made on first use, and again after the order merged its waiting changes
 * (every position may have moved).
 */
import type { FacetCopy, FacetListener, ValueCounts } from './facetCopy.ts'
import type { SortedEntries, SortedObserver, Stretch } from './sortedEntries.ts'

/**
 * Facet values (of the type, all fields) above which blocks are not kept: adding a block's counts then costs about
 * what counting its documents' values does (a few values each), and the blocks would hold ~8 KB each and more.
 */
const MAX_VALUES = 2048

/**
 * Positions per block for an order of `length` entries and `values` facet values, pure: a power of two from 64 to
 * 1,024. A stretch costs the values of each block it covers (added in order: ~1 ns each) and, for its two partial
 * blocks, up to half a block of documents each (counted one by one, a few cache misses each: ~10 ns). For a stretch
 * of half the order the sum is least near sqrt(length x values / 20): 1,024 for 100,000 names and ~250 values, 256
 * for a cluster shard's ~6,000 (whose partial blocks of 1,024 were most of a `GREATER_THAN`'s cost).
 */
export function blockSize(length: number, values: number): number {
  const best = Math.sqrt((length * Math.max(values, 1)) / 20)
  let size = 64
  while (size < 1024 && size * 1.5 < best) size *= 2
  return size
}

export class StretchCounts implements SortedObserver, FacetListener {
  readonly facets: FacetCopy
  private readonly order: SortedEntries
  private readonly numberOf: (entry: string) => number
  /** Each block's counts by value id, and how many of its positions are not marked removed; unmade: undefined. */
  private blocks?: Uint32Array[]
  /** Positions per block of the blocks made (blockSize). */
  private block = 1024
  private live = new Int32Array(0)
  /** The position of each document's entry in the merged array (-1: none there, or marked removed). */
  private positionOf = new Int32Array(0)
  /** A document was met at two positions: its values would count twice (until the counts are made again). */
  private doubled = false

  constructor(order: SortedEntries, facets: FacetCopy, numberOf: (entry: string) => number) {
    this.order = order
    this.facets = facets
    this.numberOf = numberOf
    order.observer = this
    facets.follow(this)
  }

  /** Stops following the order and the values (another copy of them took their place). */
  close(): void {
    if (this.order.observer === this) this.order.observer = undefined
    this.facets.unfollow(this)
  }

  marked(i: number, removed: boolean): void {
    if (!this.blocks) return
    const b = Math.floor(i / this.block)
    const n = this.order.numberAt(i)
    if (removed) {
      if (this.positionAt(n) !== i) this.doubled = true
      this.positionOf[n] = -1
      this.live[b]!--
      this.add(b, this.facets.idsOf(n), -1)
    } else {
      if (this.positionAt(n) >= 0) this.doubled = true
      this.place(n, i)
      this.live[b]!++
      this.add(b, this.facets.idsOf(n), 1)
    }
  }

  merged(): void {
    this.blocks = undefined
  }

  valuesChanged(number: number, before: ArrayLike<number>, now: ArrayLike<number>): void {
    if (!this.blocks) return
    const at = this.positionAt(number)
    if (at < 0) return
    const b = Math.floor(at / this.block)
    this.add(b, before, -1)
    this.add(b, now, 1)
  }

  /**
   * The facet counts of the documents of `stretch` (of this order), how many there are, and a test of a document's
   * number for being one of them; undefined when a document was met at two positions since the counts were made, or
   * when the type has more than MAX_VALUES facet values (counting the documents then costs less).
   */
  count(stretch: Stretch): { counts: ValueCounts; total: number; holds: (number: number) => boolean } | undefined {
    if (this.facets.values.size > MAX_VALUES) {
      this.blocks = undefined
      return undefined
    }
    const blocks = this.made()
    if (this.doubled) return undefined
    const counts = new Uint32Array(this.facets.values.size)
    const { begin, end, pending } = stretch
    const size = this.block
    const length = this.order.mergedLength
    let total = 0
    /** Adds (by 1) or takes away (by -1) the documents of positions [from, to) that are not marked removed. */
    const one = (from: number, to: number, by: number) => {
      for (let i = from; i < to; i++) {
        if (this.order.isRemoved(i)) continue
        this.facets.addDocument(counts, this.order.numberAt(i), by)
        total += by
      }
    }
    const whole = (b: number) => {
      const block = blocks[b]!
      for (let id = 0, to = Math.min(block.length, counts.length); id < to; id++) counts[id]! += block[id]!
      total += this.live[b]!
    }
    for (let b = Math.floor(begin / size); b * size < end; b++) {
      const blockEnd = Math.min((b + 1) * size, length)
      const from = Math.max(begin, b * size)
      const to = Math.min(end, blockEnd)
      // A partial block from its fewer positions: those inside the stretch, or the whole block less those outside.
      if (2 * (to - from) <= blockEnd - b * size) one(from, to, 1)
      else {
        whole(b)
        one(b * size, from, -1)
        one(to, blockEnd, -1)
      }
    }
    const waiting = new Set<number>()
    for (const entry of pending) {
      const n = this.numberOf(entry)
      this.facets.addDocument(counts, n, 1)
      waiting.add(n)
      total++
    }
    const holds = (n: number) => {
      const at = n < this.positionOf.length ? this.positionOf[n]! : -1
      return (at >= begin && at < end) || (waiting.size > 0 && waiting.has(n))
    }
    return { counts, total, holds }
  }

  /** The blocks' counts, made from the merged array when they are not. */
  private made(): Uint32Array[] {
    if (this.blocks) return this.blocks
    const length = this.order.mergedLength
    this.block = blockSize(length, this.facets.values.size)
    const blocks = Array.from({ length: Math.ceil(length / this.block) }, () => new Uint32Array(this.facets.values.size))
    this.live = new Int32Array(blocks.length)
    this.positionOf.fill(-1)
    this.doubled = false
    for (let i = 0; i < length; i++) {
      if (this.order.isRemoved(i)) continue
      const n = this.order.numberAt(i)
      const b = Math.floor(i / this.block)
      if (this.positionAt(n) >= 0) this.doubled = true
      this.place(n, i)
      this.live[b]!++
      this.facets.addDocument(blocks[b]!, n, 1)
    }
    this.blocks = blocks
    return blocks
  }

  /** The position of document `n`'s entry, or -1. */
  private positionAt(n: number): number {
    return n < this.positionOf.length ? this.positionOf[n]! : -1
  }

  private place(n: number, at: number): void {
    if (n >= this.positionOf.length) {
      const grown = new Int32Array(Math.max(n + 1, 2 * this.positionOf.length)).fill(-1)
      grown.set(this.positionOf)
      this.positionOf = grown
    }
    this.positionOf[n] = at
  }

  /** Adds `by` to block `b`'s counts of value ids `ids` (its counts grow with new ids). */
  private add(b: number, ids: ArrayLike<number>, by: number): void {
    let block = this.blocks![b]!
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!
      if (id >= block.length) {
        const grown = new Uint32Array(Math.max(id + 1, this.facets.values.size, 2 * block.length))
        grown.set(block)
        this.blocks![b] = block = grown
      }
      block[id]! += by
    }
  }
}
