/**
 * Facet counts kept current, in a gateway, for the documents of a frequent word and of a frequent facet value of one
 * index (its copies: wordCopy.ts, facetCopy.ts), so that the facets of a query of one word, or of one value
 * (`field:value`, a facet picked), are read rather than counted from its thousands of matches (a cache miss or three
 * per match: about 0.2 ms per 1,000 on a busy 2-core machine). A word's or value's table (counts by value id, as
 * FacetCopy counts) is made on its first use by counting its documents once, then follows every change of the
 * copies: a document that enters or leaves a word's posting adds or takes its values from that word's table; a
 * document whose values change takes its old values from, and adds its new ones to, the tables of its words and of
 * its values. Each change reads the other copy as it is at that moment, so the order in which the log changes words
 * and values does not matter.
 *
 * A frequent value also gets a bitmap of its documents, kept the same way, so that a facet filter beside words
 * checks each candidate by one bit.
 *
 * Only words and values of at least `min` documents (NATIVE_TALLY_MIN, shared by the shards) get a table (fewer
 * are counted as they come, cheaply); the words' tables, the values' and the bitmaps each take at most TALLY_BUDGET
 * bytes, the least recently read dropped first (the next query makes it again).
 */
import type { FacetCopy, FacetListener, ValueCounts } from './facetCopy.ts'
import { withMarks } from './stampedMarks.ts'
import type { WordCopy, WordListener } from './wordCopy.ts'

/** Bytes of tables kept per index copy. */
const TALLY_BUDGET = 16 * 1024 * 1024

/** One word's or value's counts; `counts` grows when the copies give new value ids. */
interface Table { counts: Uint32Array }

export class FacetTallies implements WordListener, FacetListener {
  private words?: WordCopy
  private facets?: FacetCopy
  private readonly byWord = new Map<number, Table>()
  private readonly byValue = new Map<number, Table>()
  /** Frequent values' documents, as bitmaps (bit n = document n, most significant bit first), for facet checks. */
  private readonly documents = new Map<number, { bitmap: Uint8Array }>()
  private readonly min: number

  constructor(min: number) {
    this.min = min
  }

  /** Follows these copies from now on (after either is copied anew): every table is dropped. */
  attach(words: WordCopy | undefined, facets: FacetCopy | undefined): void {
    this.byWord.clear()
    this.byValue.clear()
    this.documents.clear()
    if (this.words && this.words !== words) this.words.listener = undefined
    if (this.facets && this.facets !== facets) this.facets.unfollow(this)
    this.words = words
    this.facets = facets
    if (words) words.listener = this
    facets?.follow(this)
  }

  /** Whether ofWords answers (copies of the words and the facet values are followed). */
  follows(): boolean {
    return this.facets !== undefined && this.words !== undefined
  }

  /** Whether ofWord(id) answers (word `id` has at least `min` documents), without making its table. */
  keepsWord(id: number): boolean {
    return this.follows() && this.words!.posting(id).length >= this.min
  }

  /** The facet counts of word `id`'s documents, or undefined when it has fewer than `min` (count them). */
  ofWord(id: number): ValueCounts | undefined {
    if (!this.keepsWord(id)) return undefined
    const posting = this.words!.posting(id)
    const facets = this.facets!
    return this.read(this.byWord, id, () => facets.countNumbers(posting))
  }

  /**
   * The facet counts of the documents of any of the words `ids` (a prefix's words), each document once: a kept word
   * adds its counts less those of its documents already counted (found by a byte per document number), a word
   * without counts adds its documents not counted yet. Reading a document's values is the dear part (a cache miss or
   * three); here only the documents two words share are read, where counting the union read every one.
   */
  ofWords(ids: readonly number[]): ValueCounts | undefined {
    if (!this.follows()) return undefined
    const words = this.words!
    const facets = this.facets!
    const counts = new Uint32Array(facets.values.size)
    withMarks([words.documentLimit], ([counted]) => {
      for (const id of ids) {
        const posting = words.posting(id)
        const kept = this.ofWord(id)
        // Loops by index: an iterator's step was an object per document here.
        if (kept) {
          for (let k = 0; k < kept.length; k++) counts[k]! += kept[k]!
          for (let i = 0; i < posting.length; i++) if (counted!.has(posting[i]!)) facets.addDocument(counts, posting[i]!, -1)
        } else {
          for (let i = 0; i < posting.length; i++) if (!counted!.has(posting[i]!)) facets.addDocument(counts, posting[i]!, 1)
        }
        for (let i = 0; i < posting.length; i++) counted!.mark(posting[i]!)
      }
    })
    return counts
  }

  /** Whether value `id` has the documents for its counts to be kept (ofValue answers). */
  keeps(id: number): boolean {
    return (this.facets?.total(id) ?? 0) >= this.min
  }

  /** The facet counts of the documents that have value `id`, or undefined when fewer than `min` have it. */
  ofValue(id: number): ValueCounts | undefined {
    const facets = this.facets
    if (!facets || !this.keeps(id)) return undefined
    return this.read(this.byValue, id, () => facets.countHaving(id))
  }

  /**
   * The documents that have value `id`, as a bitmap (a view: read it before the copies change), or undefined when
   * fewer than `min` have it: checking a document is then a bit test rather than a look at its values (a cache miss
   * or three, when a word's thousands of documents are checked against a facet filter).
   */
  documentsOf(id: number): Uint8Array | undefined {
    const facets = this.facets
    if (!facets || !this.keeps(id)) return undefined
    const kept = recent(this.documents, id, () => ({ bitmap: facets.bitmapHaving(id) }))
    keepAtMost(this.documents, TALLY_BUDGET / kept.bitmap.length)
    return kept.bitmap
  }

  joined(number: number, id: number): void {
    const table = this.byWord.get(id)
    if (table && this.facets) add(table, this.facets.idsOf(number), 1)
  }

  left(number: number, id: number): void {
    const table = this.byWord.get(id)
    if (table && this.facets) add(table, this.facets.idsOf(number), -1)
  }

  released(id: number): void {
    this.byWord.delete(id)
  }

  valuesChanged(number: number, before: ArrayLike<number>, now: ArrayLike<number>): void {
    const change = (table: Table | undefined) => {
      if (!table) return
      add(table, before, -1)
      add(table, now, 1)
    }
    for (let k = 0; k < before.length; k++) {
      const t = this.byValue.get(before[k]!)
      if (t) add(t, before, -1)
      const d = this.documents.get(before[k]!)
      if (d && number >> 3 < d.bitmap.length) d.bitmap[number >> 3]! &= ~(0x80 >> (number & 7))
    }
    for (let k = 0; k < now.length; k++) {
      const t = this.byValue.get(now[k]!)
      if (t) add(t, now, 1)
      const d = this.documents.get(now[k]!)
      if (d) {
        if (number >> 3 >= d.bitmap.length) {
          const grown = new Uint8Array(Math.max((number >> 3) + 1, 2 * d.bitmap.length))
          grown.set(d.bitmap)
          d.bitmap = grown
        }
        d.bitmap[number >> 3]! |= 0x80 >> (number & 7)
      }
    }
    if (this.words && this.byWord.size > 0) for (const id of this.words.wordIds(number)) change(this.byWord.get(id))
  }

  /** A copy of the table of `id` in `tables` (made by `make` when there is none), as long as the values' ids. */
  private read(tables: Map<number, Table>, id: number, make: () => Uint32Array): ValueCounts {
    const table = recent(tables, id, () => ({ counts: make() }))
    const size = this.facets!.values.size
    const out = new Uint32Array(size)
    out.set(table.counts.length <= size ? table.counts : table.counts.subarray(0, size))
    for (const kept of [this.byWord, this.byValue]) keepAtMost(kept, TALLY_BUDGET / (4 * size))
    return out
  }
}

/** The entry of `id` in `entries` (made by `make` when there is none), put last: the last read is the last dropped. */
function recent<T>(entries: Map<number, T>, id: number, make: () => T): T {
  const entry = entries.get(id) ?? make()
  entries.delete(id)
  entries.set(id, entry)
  return entry
}

/** Drops the least recently read of `entries` until at most `most` (at least one) are left. */
function keepAtMost<T>(entries: Map<number, T>, most: number): void {
  while (entries.size > Math.max(1, Math.floor(most))) entries.delete(entries.keys().next().value!)
}

/** Adds `by` to the counts of value ids `ids` in `table`. */
function add(table: Table, ids: ArrayLike<number>, by: number): void {
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k]!
    if (id >= table.counts.length) {
      const grown = new Uint32Array(Math.max(id + 1, 2 * table.counts.length))
      grown.set(table.counts)
      table.counts = grown
    }
    table.counts[id]! += by
  }
}
