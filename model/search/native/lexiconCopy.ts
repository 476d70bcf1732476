/**
 * One lexicon's values held in a gateway (indexMirror.ts), searched by their inside (CONTAIN) or their end
 * (END_WITH). Values are kept in blocks of BLOCK; each block keeps its lower-cased values joined into one string,
 * so that a search is a few `indexOf` over long strings (the engine's fast substring search) rather than one
 * comparison per value: about 2-2.5 ms for 100,000 names where comparing each took ~4 ms. A change makes its block's
 * string stale; the next search joins it again (BLOCK values), so a lexicon that keeps changing costs the blocks it
 * changed, not the whole lexicon. END_WITH reads another order, kept from its first use on (sortedEntries.ts):
 * every value's reversed form, sorted, where the values ending with a needle are the range that starts with the
 * needle reversed (a binary search, then the matches). CONTAIN of a needle of three or more code units reads, from
 * its first use on, the values under the needle's rarest trigram (trigrams.ts) rather than every block: at 100,000
 * names a word of the vocabulary is checked against a few thousand values, and the cost does not grow with the
 * lexicon but with the values sharing that trigram. A paired field's lexicon keeps more (pairsCopy.ts).
 */
import { itemsAt } from '../../positions.ts'
import { SortedEntries } from './sortedEntries.ts'
import { StampedMarks } from './stampedMarks.ts'
import { Trigrams } from './trigrams.ts'

/** Values per block (a power of two: a position's block is its high bits). */
const BLOCK_BITS = 10
const BLOCK = 1 << BLOCK_BITS
/** Closes each value in a block's string (a value that holds it is still found: every occurrence is checked). */
const SEP = '\u0001'

interface Joined {
  text: string
  /** Where each value of the block begins in `text`, and where the next would (one more than the values). */
  starts: Int32Array
}

export class LexiconCopy {
  private readonly values: string[] = []
  private readonly lowers: string[] = []
  private readonly index = new Map<string, number>()
  private readonly joined: (Joined | undefined)[] = []
  private readonly lowerOf: (value: string) => string
  /** A number each value carries (numberOf: a pair's document's), by position beside `values`, when asked for. */
  private readonly numberOf?: (value: string) => number
  private readonly numbers: number[] = []
  /** `reversed lower-cased value END_SEP value` of every value, in order (END_WITH); built on first use. */
  private ends?: SortedEntries
  /** Positions by trigram (CONTAIN of three code units or more); built on first use, again after many deletes. */
  private grams?: Trigrams
  /** Deletes since `grams` was built: each may leave stale entries there. */
  private deletesSinceGrams = 0
  /** The positions the trigram search in progress found (a repeated entry is then skipped). */
  private readonly found = new StampedMarks()

  /**
   * `lowerOf` gives the form values are compared in (lower-cased); `numberOf`, a number each value carries, kept
   * beside the values so that numbersContaining reads it without reading the values.
   */
  constructor(lowerOf: (value: string) => string, numberOf?: (value: string) => number) {
    this.lowerOf = lowerOf
    this.numberOf = numberOf
  }

  get size(): number {
    return this.values.length
  }

  /** Adds a value; false when it was there already. */
  add(value: string): boolean {
    if (this.index.has(value)) return false
    this.index.set(value, this.values.length)
    this.values.push(value)
    this.lowers.push(this.lowerOf(value))
    if (this.numberOf) this.numbers.push(this.numberOf(value))
    this.stale(this.values.length - 1)
    this.grams?.add(this.values.length - 1, this.lowers[this.lowers.length - 1]!)
    this.ends?.add(endEntry(this.lowers[this.lowers.length - 1]!, value))
    return true
  }

  /** Removes a value; false when it was not there. */
  delete(value: string): boolean {
    const at = this.index.get(value)
    if (at === undefined) return false
    this.ends?.delete(endEntry(this.lowers[at]!, value))
    // The last value takes the place of the removed one.
    const last = this.values.length - 1
    if (at !== last) {
      this.values[at] = this.values[last]!
      this.lowers[at] = this.lowers[last]!
      if (this.numberOf) this.numbers[at] = this.numbers[last]!
      this.index.set(this.values[at]!, at)
      this.grams?.add(at, this.lowers[at]!)
    }
    this.values.pop()
    this.lowers.pop()
    if (this.numberOf) this.numbers.pop()
    this.index.delete(value)
    this.stale(at)
    this.stale(last)
    // Once deletes could have left more stale entries than there are values, the lists are built anew on next use.
    if (this.grams && ++this.deletesSinceGrams > this.values.length) this.grams = undefined
    return true
  }

  /** The values whose lower-cased form contains `needle` (CONTAIN) or ends with it (END_WITH); `needle` lower-cased. */
  find(condition: 'CONTAIN' | 'END_WITH', needle: string): string[] {
    return condition === 'END_WITH' ? this.endingWith(needle) : itemsAt(this.values, this.containing(needle))
  }

  /**
   * The numbers (numberOf) of the values whose lower-cased form contains `needle` (lower-cased), read from beside the
   * values: a copy's values lie scattered over the heap, and reading each found one cost about as much as the search.
   */
  protected numbersContaining(needle: string): number[] {
    return itemsAt(this.numbers, this.containing(needle))
  }

  /** Builds now what CONTAIN and END_WITH build on their first use. */
  prepare(): void {
    this.trigrams()
    this.endOrder()
  }

  /** A copy of every value. */
  protected allValues(): string[] {
    return [...this.values]
  }

  private endOrder(): SortedEntries {
    return (this.ends ??= new SortedEntries(this.values.map((value, i) => endEntry(this.lowers[i]!, value))))
  }

  private trigrams(): Trigrams {
    if (!this.grams) {
      this.grams = new Trigrams()
      this.deletesSinceGrams = 0
      this.lowers.forEach((lower, i) => this.grams!.add(i, lower))
    }
    return this.grams
  }

  private endingWith(needle: string): string[] {
    const ends = this.endOrder()
    const found: string[] = []
    const sought = reversed(needle)
    ends.scan(sought, (entry) => {
      if (!entry.startsWith(sought)) return false
      // The entry names its value after the separator (the first one after the needle, unless the value's own form
      // holds one: then the cut that rebuilds the entry).
      for (let cut = entry.indexOf(END_SEP, sought.length); cut >= 0; cut = entry.indexOf(END_SEP, cut + 1)) {
        const value = entry.slice(cut + 1)
        const at = this.index.get(value)
        if (at === undefined || endEntry(this.lowers[at]!, value) !== entry) continue
        if (this.lowers[at]!.endsWith(needle)) found.push(value)
        break
      }
      return true
    })
    return found
  }

  /** The positions of the values whose lower-cased form contains `needle`. */
  private containing(needle: string): number[] {
    return needle.length >= 3 ? this.containingByTrigram(needle) : this.containingByBlocks(needle)
  }

  private containingByTrigram(needle: string): number[] {
    const grams = this.trigrams()
    const seen = this.found.begin(this.values.length)
    const found: number[] = []
    let b = -1
    let joined: Joined | undefined
    for (const id of grams.candidates(needle)) {
      // A stale entry names a position past the end, or one whose value now lacks the needle.
      if (id >= this.values.length || seen.has(id)) continue
      // Each candidate is read in its block's joined string (the values side by side), not as a string of its own:
      // a copy's values lie scattered over the heap (a pair's is a slice of a longer string); at 100,000 names a
      // word's ~950 candidates took ~160-190 us read one by one, ~70-95 so (ops/bench/containFinds.ts).
      if (id >> BLOCK_BITS !== b) joined = this.block((b = id >> BLOCK_BITS))
      const k = id & (BLOCK - 1)
      if (!holds(joined!.text, joined!.starts[k]!, joined!.starts[k + 1]! - 1, needle)) continue
      seen.mark(id)
      found.push(id)
    }
    return found
  }

  private containingByBlocks(needle: string): number[] {
    const found: number[] = []
    for (let b = 0; b * BLOCK < this.values.length; b++) {
      const { text, starts } = this.block(b)
      for (let from = 0; ;) {
        const at = text.indexOf(needle, from)
        if (at < 0 || at >= text.length) break
        // The value where the occurrence begins is compared whole (an occurrence may run across a separator, or a
        // value may hold the separator); the search goes on from the next value, so each value is found once.
        const k = valueAt(starts, at)
        if (this.lowers[b * BLOCK + k]!.includes(needle)) found.push(b * BLOCK + k)
        from = starts[k + 1]!
      }
    }
    return found
  }

  private stale(i: number): void {
    this.joined[Math.floor(i / BLOCK)] = undefined
  }

  private block(b: number): Joined {
    let joined = this.joined[b]
    if (!joined) {
      const end = Math.min(this.values.length, (b + 1) * BLOCK)
      const starts = new Int32Array(end - b * BLOCK + 1)
      let length = 0
      for (let i = b * BLOCK; i < end; i++) {
        starts[i - b * BLOCK] = length
        length += this.lowers[i]!.length + SEP.length
      }
      starts[end - b * BLOCK] = length
      // Joined by `join`, which makes one flat string (`+=` makes a rope, flattened only by its first search); the
      // empty part closes the last value.
      const parts = this.lowers.slice(b * BLOCK, end)
      parts.push('')
      const text = parts.join(SEP)
      this.joined[b] = joined = { text, starts }
    }
    return joined
  }
}

/** Whether `text` holds `needle` between `from` and `end` (excluded): a value of a block's joined string. */
function holds(text: string, from: number, end: number, needle: string): boolean {
  const first = needle.charCodeAt(0)
  for (let i = from, last = end - needle.length; i <= last; i++) {
    if (text.charCodeAt(i) !== first) continue
    let j = 1
    while (j < needle.length && text.charCodeAt(i + j) === needle.charCodeAt(j)) j++
    if (j === needle.length) return true
  }
  return false
}

/** The index of the value whose span [starts[k], starts[k + 1]) holds position `at` (binary search). */
function valueAt(starts: Int32Array, at: number): number {
  let lo = 0
  let hi = starts.length - 2
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid]! <= at) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** Separates an END_WITH entry's reversed form from its value. */
const END_SEP = '\u0000'

const reversed = (s: string): string => s.split('').reverse().join('')

/** A value's END_WITH entry: its lower-cased form reversed, then the value. */
const endEntry = (lower: string, value: string): string => `${reversed(lower)}${END_SEP}${value}`
