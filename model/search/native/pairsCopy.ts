/**
 * A paired field's pairs held in a gateway (indexMirror.ts): `value \0 urn \0 document number`, a name (lower-cased),
 * its document's urn and number. Beside the lexicon's own searches (lexiconCopy.ts: CONTAIN, END_WITH), three orders
 * are kept from their first use on (sortedEntries.ts):
 * - the pairs' order, which is their values' order (a value is followed by \0, below any code unit of a value): the
 *   pairs of EQUAL, START_WITH or a range are one stretch of it, found by two binary searches; its documents'
 *   numbers are read from beside the pairs, without reading the pairs;
 * - their urns' order (`urn \0 value \0 number`): the page of a large result is the first documents met there that the
 *   result holds, so its cost is the page's, divided by the share of the documents the result has, rather than a
 *   comparison per match.
 * - the suggestion entries (`text \0 value \0 number`, text the normalized value from one of its word starts on,
 *   suggest.ts): autocomplete reads the first entries that start with what was typed (suggestionsFrom), so Redis
 *   keeps no autocomplete entries.
 * And each document's urn by its number, for the page of a small result, and each pair's value as its document
 * writes it where that is not the lower-cased value (autocomplete shows every spelling: spellingsOf). A large stretch,
 * while every document has at most one pair, is answered without its documents (stretchAnswer: its facets counted by
 * blocks of the pairs' order, stretchCounts.ts).
 */
import { normalizeSuggestion, wordStarts } from '../suggest.ts'
import type { FacetCopy, ValueCounts } from './facetCopy.ts'
import { LexiconCopy } from './lexiconCopy.ts'
import { SortedEntries } from './sortedEntries.ts'
import { blockSize, StretchCounts } from './stretchCounts.ts'

/** A pair's value (lower-cased already), urn and document number. */
export const pairValue = (pair: string): string => pair.slice(0, pair.indexOf('\u0000'))
export const pairUrn = (pair: string): string => pair.slice(pair.indexOf('\u0000') + 1, pair.lastIndexOf('\u0000'))
/** A pair's document number, read from its digits (no string cut out: a query may read a pair per document). */
export function pairNumber(pair: string): number {
  let n = 0
  for (let i = pair.lastIndexOf('\u0000') + 1; i < pair.length; i++) n = n * 10 + pair.charCodeAt(i) - 48
  return n
}
export const pairOf = (value: string, urn: string, number: string | number): string => `${value}\u0000${urn}\u0000${number}`
/** A pair's entry in the urns' order: `urn \0 value \0 number` (its number read as a pair's). */
const urnEntry = (pair: string): string => `${pairUrn(pair)}\u0000${pairValue(pair)}\u0000${pairNumber(pair)}`
/** A suggestion entry: `text \0 value \0 number` (suggestionParts reads it back). */
const suggestionEntry = (text: string, value: string, number: number): string => `${text}\u0000${value}\u0000${number}`
/** A pair's suggestion entries: from each word start of its normalized value. */
function suggestionEntries(pair: string): string[] {
  const value = pairValue(pair)
  const normalized = normalizeSuggestion(value)
  const number = pairNumber(pair)
  return wordStarts(normalized).map((start) => suggestionEntry(normalized.slice(start), value, number))
}

/** A suggestion entry's parts: its text (from a word start), the value (lower-cased) and its document's number. */
export function suggestionParts(entry: string): { text: string; value: string; number: number } {
  const first = entry.indexOf('\u0000')
  const last = entry.lastIndexOf('\u0000')
  return { text: entry.slice(0, first), value: entry.slice(first + 1, last), number: Number(entry.slice(last + 1)) }
}

/**
 * Pairs from which a stretch is counted by blocks (stretchAnswer) rather than by its documents: two blocks
 * (stretchCounts.ts blockSize), at least one of them whole. At 4,096 a cluster's 16 shards of 100,000 names never
 * reached it (half a shard is ~3,100): `name GREATER_THAN <word>` then cost its gateway 2.3 ms a query, 1.7 ms by
 * blocks; at a fixed 2,048, a shard's stretches of fewer pairs (blocks of 256 there) were still counted document by
 * document, most of the kind's cost on a cluster.
 */
const stretchCounted = (pairs: number, values: number): number => 2 * blockSize(pairs, values)

/** Values whose spellings are kept worked out at most (spellingsOf); past it they are forgotten and worked out again. */
const MAX_SPELLED = 10_000

export class PairsCopy extends LexiconCopy {
  /** The pairs in order; built on first use. */
  private order?: SortedEntries
  /** The pairs' urn entries (urnEntry) in order; built on first use. */
  private urns?: SortedEntries
  /** The pairs' suggestion entries (suggestionEntries) in order; built on first use. */
  private suggestions?: SortedEntries
  /**
   * A document's urn by its number, while it has pairs here, and how many; kept dense (holes are `undefined` and 0):
   * a sparse array turns into a slow dictionary, and pairs are read in no order of their numbers.
   */
  private readonly urnByNumber: (string | undefined)[] = []
  private readonly pairsByNumber: number[] = []
  /** Documents with more than one pair here (a stretch's counts by block would count them twice). */
  private multiPaired = 0
  /** Facet counts of stretches of the pairs' order, made on the first large stretch asked for. */
  private counts?: StretchCounts
  /** Each pair's value as its document writes it, where that differs from the value (lower-cased). */
  private readonly originals = new Map<string, string>()
  /** The spellings of values asked for (spellingsOf), until one of the value's pairs changes. */
  private readonly spelled = new Map<string, string[]>()

  constructor() {
    super(pairValue, pairNumber)
  }

  /**
   * Adds a pair, and the value as its document writes it (`original`; the same value in another case when the pair
   * is there already: only the spelling changes).
   */
  override add(pair: string, original?: string): boolean {
    this.spell(pair, original)
    if (!super.add(pair)) return false
    this.order?.add(pair)
    this.urns?.add(urnEntry(pair))
    if (this.suggestions) for (const entry of suggestionEntries(pair)) this.suggestions.add(entry)
    const n = pairNumber(pair)
    while (this.pairsByNumber.length <= n) {
      this.pairsByNumber.push(0)
      this.urnByNumber.push(undefined)
    }
    this.urnByNumber[n] = pairUrn(pair)
    if (++this.pairsByNumber[n]! === 2) this.multiPaired++
    return true
  }

  override delete(pair: string): boolean {
    this.spell(pair, undefined)
    if (!super.delete(pair)) return false
    this.order?.delete(pair)
    this.urns?.delete(urnEntry(pair))
    if (this.suggestions) for (const entry of suggestionEntries(pair)) this.suggestions.delete(entry)
    // A number is its urn's while the document has pairs (a number freed may be given to another document).
    const n = pairNumber(pair)
    if (--this.pairsByNumber[n]! === 0) this.urnByNumber[n] = undefined
    else if (this.pairsByNumber[n] === 1) this.multiPaired--
    return true
  }

  /**
   * The pairs whose value contains `needle` (CONTAIN), ends with it (END_WITH), or is it (EQUAL), is above
   * (GREATER_THAN...), below (LESS_THAN...) or starts with (START_WITH) it, the last four read in the pairs' order:
   * at most `limit` + 1 (more than `limit` tells the caller it is too broad). `needle` is lower-cased.
   */
  pairsWhere(condition: PairCondition, needle: string, limit: number): string[] {
    if (condition === 'CONTAIN' || condition === 'END_WITH') return this.find(condition, needle)
    const found: string[] = []
    const [from, within] = stretchOf(condition, needle)
    this.valueOrder().scan(from, (pair) => {
      if (!within(pair)) return false
      found.push(pair)
      return found.length <= limit
    })
    return found
  }

  /**
   * The document numbers of the pairs pairsWhere finds, however many (a document's more than once when several of its
   * pairs meet the condition); a stretch's are read from beside the pairs.
   */
  numbersWhere(condition: PairCondition, needle: string): Numbers {
    if (condition === 'CONTAIN') return this.numbersContaining(needle)
    if (condition === 'END_WITH') return this.find(condition, needle).map(pairNumber)
    return this.valueOrder().numbersWithin(...stretchOf(condition, needle))
  }

  /**
   * A large stretch (START_WITH or a range) counted without reading its documents' values: how many documents, their
   * facet counts (by value id of `facets`, the copy of the same index's facet values: counted by blocks of the pairs'
   * order, stretchCounts.ts), a test of a document's number for being one of them, and their numbers (read from
   * beside the pairs) for a page that compares them. Undefined when the stretch has fewer pairs than stretchCounted
   * (its documents' values cost less) or a document has several pairs here: the caller then counts its documents
   * (numbersWhere).
   */
  stretchAnswer(condition: RangeCondition, needle: string, facets: FacetCopy): { total: number; counts: ValueCounts; holds: (number: number) => boolean; numbers: () => Int32Array } | undefined {
    if (this.multiPaired > 0) return undefined
    const [start, within] = stretchOf(condition, needle)
    const pairs = this.valueOrder()
    const stretch = pairs.stretch(start, within)
    if (stretch.end - stretch.begin + stretch.pending.length < stretchCounted(pairs.mergedLength, facets.values.size)) return undefined
    if (this.counts?.facets !== facets) {
      this.counts?.close()
      this.counts = new StretchCounts(pairs, facets, pairNumber)
    }
    const counted = this.counts.count(stretch)
    return counted && { ...counted, numbers: () => pairs.numbersWithin(start, within) }
  }

  /**
   * The first `limit` suggestion entries whose text starts with `text` (normalized, suggest.ts), in order: a binary
   * search, then the entries read.
   */
  suggestionsFrom(text: string, limit: number): string[] {
    const found: string[] = []
    if (limit <= 0) return found
    this.suggestionOrder().scan(text, (entry) => {
      if (!entry.startsWith(text)) return false
      found.push(entry)
      return found.length < limit
    })
    return found
  }

  /**
   * The first `limit` suggestion entries of the values that start with `text` (whole matches: each value's entry from
   * its start), read in the pairs' order. In the suggestion order they may come after many entries of values in
   * which `text` starts a later word (`sales \0 w00 sales` < `sales_summary \0 ...`), which rank below them.
   */
  wholeSuggestionsFrom(text: string, limit: number): string[] {
    const found: string[] = []
    if (limit <= 0) return found
    this.valueOrder().scan(text, (pair) => {
      if (!pair.startsWith(text)) return false
      const value = pairValue(pair)
      // Lower-cased already: most values have no white space to collapse.
      const normalized = /\s/.test(value) ? normalizeSuggestion(value) : value
      if (normalized.startsWith(text)) found.push(suggestionEntry(normalized, value, pairNumber(pair)))
      return found.length < limit
    })
    return found
  }

  /**
   * The spellings of `value` (lower-cased) in its documents, each once, in the pairs' order (by urn); with `keep`,
   * in those of its documents `keep` takes (by number). Read from the value's pairs, so a value many documents share
   * costs a comparison per document the first time it is asked (and after each change of its pairs), then nothing.
   */
  spellingsOf(value: string, keep?: (number: number) => boolean): string[] {
    const known = keep ? undefined : this.spelled.get(value)
    if (known) return known
    const found = new Set<string>()
    const [from, within] = stretchOf('EQUAL', value)
    this.valueOrder().scan(from, (pair) => {
      if (!within(pair)) return false
      if (!keep || keep(pairNumber(pair))) found.add(this.originals.get(pair) ?? value)
      return true
    })
    const list = [...found]
    if (!keep) {
      if (this.spelled.size >= MAX_SPELLED) this.spelled.clear()
      this.spelled.set(value, list)
    }
    return list
  }

  /** Records a pair's spelling (none: its value's), and forgets the spellings of its value worked out before. */
  private spell(pair: string, original: string | undefined): void {
    const value = pairValue(pair)
    if (original !== undefined && original !== value) this.originals.set(pair, original)
    else if (this.originals.size > 0) this.originals.delete(pair)
    if (this.spelled.size > 0) this.spelled.delete(value)
  }

  /** Stops the counts by block following the facet values (this copy was replaced). */
  close(): void {
    this.counts?.close()
    this.counts = undefined
  }

  /** The urn of document `number`, which has a pair here. */
  urnOf(number: number): string | undefined {
    return this.urnByNumber[number]
  }

  /**
   * The urns, in order, of the documents `from` to `from + count` that `accept` takes (by number) among those with
   * a pair here, each once: read in the urns' order until the page is full.
   */
  pageByUrn(accept: (number: number) => boolean, from: number, count: number): string[] {
    const page: string[] = []
    if (count <= 0) return page
    let seen = 0
    let last: number | undefined
    // A document's entries are next to each other (its urn begins them); its number is its urn's while it has pairs.
    this.urnOrder().scanNumbers((n) => {
      if (n === last || !accept(n)) return true
      last = n
      if (seen++ >= from) page.push(this.urnByNumber[n]!)
      return page.length < count
    })
    return page
  }

  override prepare(): void {
    super.prepare()
    this.valueOrder()
    this.urnOrder()
    this.suggestionOrder()
  }

  private valueOrder(): SortedEntries {
    return (this.order ??= new SortedEntries(this.allValues(), pairNumber))
  }

  private urnOrder(): SortedEntries {
    return (this.urns ??= new SortedEntries(this.allValues().map(urnEntry), pairNumber))
  }

  private suggestionOrder(): SortedEntries {
    return (this.suggestions ??= new SortedEntries(this.allValues().flatMap(suggestionEntries)))
  }
}

/** The conditions the pairs' order answers, and all those a paired field's copy answers. */
export type RangeCondition = 'EQUAL' | 'START_WITH' | 'GREATER_THAN' | 'GREATER_THAN_OR_EQUAL_TO' | 'LESS_THAN' | 'LESS_THAN_OR_EQUAL_TO'
export type PairCondition = 'CONTAIN' | 'END_WITH' | RangeCondition

/** Document numbers, a document's possibly more than once. */
export type Numbers = readonly number[] | Int32Array

/** Where a condition's pairs begin in the pairs' order, and whether a pair from there on is still one of them. */
type Stretch = [from: string, within: (pair: string) => boolean]

/** Nothing: the stretch of a condition no pair meets. */
const EMPTY: Stretch = ['', () => false]

/**
 * A condition's stretch of pairs (`value \0 ...`, `v` free of \0; code-unit order, as Redis compares the lexicon's
 * bytes): a value equal to `v` sorts as `v \0 ...`, below `v \u0001` and above `v` itself.
 */
const PAIR_STRETCH: Record<RangeCondition, (v: string) => Stretch> = {
  EQUAL: (v) => { const from = `${v}\u0000`; return [from, (pair) => pair.startsWith(from)] },
  START_WITH: (v) => [v, (pair) => pair.startsWith(v)],
  GREATER_THAN: (v) => [`${v}\u0001`, () => true],
  GREATER_THAN_OR_EQUAL_TO: (v) => [v, () => true],
  LESS_THAN: (v) => ['', (pair) => pair < v],
  LESS_THAN_OR_EQUAL_TO: (v) => { const to = `${v}\u0001`; return ['', (pair) => pair < to] },
}

/** Whether a paired field's copy answers `condition`. */
export const isPairCondition = (condition: string): condition is PairCondition =>
  condition === 'CONTAIN' || condition === 'END_WITH' || Object.hasOwn(PAIR_STRETCH, condition)

/**
 * A condition's stretch of pairs. A `v` that holds \0 becomes the same condition on its part before the first \0
 * (`p`), which no value holds: a value is below `v` when it is at most `p`, above it when it is above `p`, and none
 * starts with `v` or equals it.
 */
function stretchOf(condition: RangeCondition, v: string): Stretch {
  const at = v.indexOf('\u0000')
  if (at < 0) return PAIR_STRETCH[condition](v)
  if (condition === 'START_WITH' || condition === 'EQUAL') return EMPTY
  return PAIR_STRETCH[condition.startsWith('LESS') ? 'LESS_THAN_OR_EQUAL_TO' : 'GREATER_THAN'](v.slice(0, at))
}
