/**
 * The native search engine: an inverted index on core Redis structures (sets, sorted sets, lexicographic ranges),
 * for servers without the search module, one index per shard. Queries run as one Lua script per shard
 * (search-2.lua), whose cost is bounded by the page and the facet values shown, except those
 * this process answers from its copy of the index (indexMirror.ts): every query of words (wordQuery.ts) and every
 * `*` with a condition on a name, their filters checked on the copies when each criterion is on facet values or a
 * name (localFilter.ts; any other filter is resolved to its documents by the script), and a frequent facet value
 * asked alone whose documents the page does not read (valueAnswer). Two steps
 * that compare many values run here too: CONTAIN and END_WITH criteria are resolved to the values (or urns) they
 * match (no index orders values by their inside or their end), and a large result's facets are counted from its
 * bitmap; inside Redis either would hold its only thread for as long as the lexicon or the facet values are.
 */
import { randomUUID } from 'node:crypto'
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry, SearchField } from '../../registry.ts'
import { readDocuments } from '../../store/documents.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import type { RedisClient } from '../../store/redis.ts'
import { LuaScript } from '../../store/script.ts'
import type { FacetCounts, Hit, SearchEngine, ShardHits, ShardOptions } from '../engine.ts'
import { firstK } from '../firstK.ts'
import { hitsRanked } from '../merge.ts'
import { tooBroad } from '../limits.ts'
import { autocompleteScan, normalizeSuggestion, topSuggestions } from '../suggest.ts'
import type { AutocompleteQuery, Criterion, Facet, FilterGroups, SearchQuery } from '../types.ts'
import { urnId } from '../../urn.ts'
import { positionsBy, sameItems } from '../../positions.ts'
import { nativeDocumentOps } from './documentOps.ts'
import { listIdsFromLexicons } from './idsUpgrade.ts'
import { dropSuggestionEntries } from './suggestionsUpgrade.ts'
import { dropPairedPostings } from './pairsUpgrade.ts'
import { lexRange } from '../../store/lexRange.ts'
import { IndexMirror, lexiconLogOp, pairedField, undocOp, URN_LEXICON } from './indexMirror.ts'
import { pairUrn, suggestionParts, type Numbers, type PairCondition, type PairsCopy, type RangeCondition } from './pairsCopy.ts'
import { byCodeUnits, firstInOrder, keepIfFirst } from './sortedEntries.ts'
import { hasBit, type FacetCopy, type FacetValues, type ValueCounts } from './facetCopy.ts'
import type { FacetTallies } from './facetTallies.ts'
import { matchWords, singleWord, type QueryWord, type WordAnswer } from './wordQuery.ts'
import type { WordCopy } from './wordCopy.ts'
import { criterionValueIds, documentNumbers, documentSet, eachBit, facetCriterionOf, hasDocument, localCandidates, localCheck, localCriteriaOf, pairedCondition, type DocumentSet, type FacetCriterion, type ResolvedCriterion } from './localFilter.ts'
import { addTo, emptyBuckets } from '../buckets.ts'

const searchScript = new LuaScript(import.meta.url, './search-2.lua')
/**
 * The index layout this engine writes and reads (documentOps.ts): 2 since documents have numbers and bitmaps, 3
 * since their words are kept whole by number (`words:`) instead of in a posting per word, 4 since a urn's id has no
 * posting of its own (`ids:<f>` lists the values by id), 5 since autocomplete reads the gateways' copies of the names
 * (no `ac:` entries), 6 since the names have no postings or lexicons (the copies read them from the stored
 * documents), 7 since neither have the free-text fields of one value (descriptions) and the browse paths
 * (indexMirror.ts pairedField).
 */
const NATIVE_INDEX_FORMAT = '7'
/** What the search script answers: total, the page's urns, a match-all's facets, bitmap, numbers, documents. */
type ScriptAnswer = [number, Buffer[], (Buffer | (Buffer | number)[])[], Buffer, number[], (Buffer | null)[]]
/** The script's condition for a list of urns resolved here (a condition on a paired field): not one a caller can send. */
const URNS = 'URNS' as Criterion['condition']
/** EQUAL on a URN field, whose values also name the values whose id they are (the script's condition, filter.lua). */
const EQUAL_OR_ID = 'EQUAL_OR_ID' as Criterion['condition']
/** Documents from which a result's facets are counted from a bitmap of their numbers (countable). */
const COUNT_BY_BITMAP = 1024
/** How often a gateway reads the change logs of its copies of the index (warmUp). */
const KEEP_CURRENT_MS = 1000
/**
 * Pages (start + count) up to which guessPage guesses: a deeper page's merge of every shard's first start+count is
 * dear, and guessed it would be merged twice (a page from 0-2000 on 16 shards: 1.5-1.8 ms of the gateway's CPU a
 * query unguessed, 2.7-2.8 guessed).
 */
const GUESSED_DEPTH = 100

function encodeCriteria(list: readonly Criterion[]): string[] {
  const out = [String(list.length)]
  for (const c of list) {
    // Urns keep their case (the live set holds them as written); other strings compare lower-cased.
    const values = c.numeric || c.field === 'urn' ? c.values : c.values.map((v) => v.toLowerCase())
    out.push(c.field, c.condition, c.negated ? '1' : '0', c.numeric ? '1' : '0', String(values.length), ...values)
  }
  return out
}

function encodeFilter(filter: FilterGroups): string[] {
  return [String(filter.length), ...filter.flatMap((group) => encodeCriteria(group))]
}

/**
 * Document numbers to count the facets of: as a bitmap when they are many (counting then reads the copy of the facet
 * values in the order of the numbers rather than at random), as they are otherwise.
 */
const countable = (numbers: readonly number[]): readonly number[] | Buffer => numbers.length < COUNT_BY_BITMAP ? numbers : documentSet(numbers).bitmap

/**
 * A set of documents as a page reads it: how many, a test of a document's number, and their numbers (each once, in
 * any order; read only when the page compares them).
 */
interface PagedSet { count: number; has: (number: number) => boolean; numbers: () => number[] }

/** A document set (localFilter.ts) as a page reads it. */
const pagedSet = (found: DocumentSet): PagedSet =>
  ({ count: found.count, has: (n) => hasDocument(found, n), numbers: () => found.numbers ?? documentNumbers(found) })

/**
 * The urns of documents `from` to `from + size` of a set in urn order, found in the copies of the pairs they were
 * found in (or, found in none, in the copy of the words, which has every document's urn): read in one copy's urn
 * order, testing each document, when that meets the page sooner (about `(from + size) x documents / found` urns)
 * than comparing every document found (firstInOrder) by its key in urn order (the copy of the words' urnKeys, a
 * number compared where a urn is a string behind a cache miss), or by its urn where a document has no key.
 */
function pageOf(found: PagedSet, from: number, size: number, copies: readonly PairsCopy[], words: WordCopy): string[] {
  const copy = copies[0]
  if (found.count === 0 || size <= 0) return []
  if (copy && copies.length === 1 && (from + size) * copy.size < found.count * found.count / 2) return copy.pageByUrn(found.has, from, size)
  const urnOf = !copy ? (n: number) => words.urn(n)
    : copies.length === 1 ? (n: number) => copy.urnOf(n) ?? '' : (n: number) => copies.map((c) => c.urnOf(n)).find((urn) => urn !== undefined) ?? ''
  const order = (n: number) => words.orderKey(n)
  const numbers = found.numbers()
  const first = numbers.every((n) => !Number.isNaN(order(n))) ? firstInOrder(numbers, from + size, order) : firstInOrder(numbers, from + size, urnOf)
  return first.slice(from).map(urnOf)
}

/** A query of words matched on the copies (NativeEngine.matchOn). */
interface WordsMatched {
  answer: WordAnswer
  /** The page's urns. */
  page: string[]
  /** The one word, or a prefix's words, whose kept facet counts are the answer's (`tallied`), when it has them. */
  single: number | undefined
  prefixWords: readonly number[] | undefined
  tallied: boolean
  faceted: boolean
  /** The word ids it read (-1 for a word no document has), whether a filter read facet values, and their stamp. */
  ids: number[]
  keeping: boolean
  stamp: number[]
}

/** The copies of one shard's words and facet values, as they are (IndexMirror.copiedWords). */
type CopiedWords = { words: WordCopy; facets: FacetCopy; tallies: FacetTallies }

/** A shard's answer worked out by guessPage on its copies as they were, for the page [from, from + size). */
interface ShardGuess { early: CopiedWords; guess: WordsMatched; from: number; size: number }

/** The hits of an answer of words (scores are minus the relevance). */
const hitsOf = (matched: WordsMatched): Hit[] => matched.answer.page.map((m, i) => ({ urn: matched.page[i]!, score: -m.score || 0 }))

/** What keeps a document on the copies, for a filter checked there (localFilter.ts). */
const checkedOn = (groups: readonly ResolvedCriterion[][]) => (copies: { facets: FacetCopy; tallies: FacetTallies }) => localCheck(copies.facets, groups, copies.tallies)

/** The names of a type's facet fields (`fields`: its search fields). */
const facetNames = (fields: ReadonlyMap<string, SearchField>): string[] => [...fields.values()].filter((f) => f.facet).map((f) => f.name)

/**
 * A match-all's facets as the script counts them (field, {original value, count, ...}, ...: each field's most
 * frequent values in the shard, spelled as shown) as counts by value id (`values`), with those spellings.
 */
function scriptCounts(shard: number, values: FacetValues, raw: (Buffer | string | (Buffer | string | number)[])[]): FacetCounts {
  const found: [number, number][] = []
  const originals = new Map<string, Map<string, string>>()
  for (let i = 0; i < raw.length; i += 2) {
    const field = String(raw[i])
    const buckets = raw[i + 1] as (string | Buffer | number)[]
    const spelled = new Map<string, string>()
    for (let j = 0; j < buckets.length; j += 2) {
      const original = String(buckets[j])
      found.push([values.id(field, original.toLowerCase()), Number(String(buckets[j + 1]))])
      spelled.set(original.toLowerCase(), original)
    }
    originals.set(field, spelled)
  }
  const counts = new Uint32Array(values.size)
  for (const [id, n] of found) counts[id] = n
  return { shard, counts, originals }
}

export class NativeEngine implements SearchEngine {
  readonly name = 'native' as const
  readonly queriesInProcess = true
  private readonly redis: RedisClient
  private readonly registry: Registry
  private readonly keys: Keys
  /**
   * Members at which a posting of one shard keeps a bitmap (documentOps.ts), and the largest result of one shard
   * whose facets are counted from its documents' facet lines (search-2.lua): NATIVE_BITMAP_MIN shared by the
   * shards, as their postings share the documents (16 shards: a word's postings are a sixteenth as long).
   */
  private readonly bitmapMin: number
  /** The lexicons CONTAIN and END_WITH compare and the documents' facet values, copied on first use. */
  private readonly mirror: IndexMirror
  /** Each shard's guess of a query's page (guessPage), until its searchShard takes it up; gone with the query. */
  private readonly guesses = new WeakMap<SearchQuery, Map<number, ShardGuess>>()

  /** Distinct values a string condition or a word prefix may match in any one shard (MAX_FILTER_VALUES). */
  private readonly maxValues: number

  /**
   * `bitmapMin` (NATIVE_BITMAP_MIN), `maxValues` (MAX_FILTER_VALUES), `tallyMin` (NATIVE_TALLY_MIN: documents a word
   * or value needs for its facet counts to be kept, facetTallies.ts), each shared by the shards as bitmapMin is.
   */
  constructor(redis: RedisClient, registry: Registry, keys: Keys, { bitmapMin = 256, maxValues = 5000, tallyMin = 1000 } = {}) {
    this.redis = redis
    this.registry = registry
    this.keys = keys
    this.bitmapMin = Math.max(1, Math.ceil(bitmapMin / keys.shards))
    this.mirror = new IndexMirror(redis, keys, Math.max(1, Math.ceil(tallyMin / keys.shards)))
    this.maxValues = maxValues
  }

  /** Runs a search script, turning its FILTER_TOO_BROAD error into the 400 it stands for. */
  private async runScript(script: LuaScript, keys: string[], args: string[], options: { buffers?: boolean } = {}): Promise<unknown> {
    try {
      return await script.run(this.redis, keys, args, options)
    } catch (err) {
      const broad = /FILTER_TOO_BROAD (\S+) (\S+) (.*) matches (\d+) values/.exec(err instanceof Error ? err.message : '')
      // `input prefix <token>` (a word prefix) or `<field> <condition> <value>` (a filter criterion).
      const what = broad && (broad[1] === 'input' ? `the word prefix ${JSON.stringify(broad[3])}` : `the filter ${broad[1]} ${broad[2]} ${JSON.stringify(broad[3])}`)
      if (broad) throw tooBroad(what!, Number(broad[4]), this.maxValues)
      throw err
    }
  }

  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[] {
    return nativeDocumentOps(this.registry, this.keys, entity, urn, before, after, this.bitmapMin)
  }

  /** The ops adding the document, which are idempotent here (links, numbers, bitmaps, words: nothing counted twice). */
  restateDocumentOps(entity: EntitySpec, urn: string, doc: SearchDocument): Op[] {
    return this.documentOps(entity, urn, null, doc)
  }

  purgeOps(entity: EntitySpec, urn: string): Op[] {
    const shard = this.keys.shardOf(urn)
    return [
      ['ZREM', this.keys.nativeIndex(shard, entity.name, 'live'), urn], lexiconLogOp(this.keys, shard, entity.name, URN_LEXICON, urn),
      ['DEL', this.keys.doc(entity.name, urn)], undocOp(this.keys, shard, entity.name, urn),
    ]
  }

  /**
   * Records the index format on a new store (`nativeIndex` in the layout record). An index of format 3 (a posting
   * per urn id), 4 (autocomplete entries in Redis), 5 (postings of names) or 6 (postings of descriptions and browse
   * paths) is brought to this one in place (idsUpgrade.ts, suggestionsUpgrade.ts, pairsUpgrade.ts). A store indexed
   * by an earlier format (before document numbers and bitmaps; with a posting per word, no `words:`) is said so on
   * stderr: its search answers stay incomplete until `restore --rebuild`, which records the format once done
   * (markRebuilt).
   */
  async ensureIndexes(): Promise<void> {
    const recorded = await this.redis.hget(this.keys.layout(), 'nativeIndex')
    if (recorded === NATIVE_INDEX_FORMAT) return
    if (recorded === '3' || recorded === '4' || recorded === '5' || recorded === '6') {
      const listed = recorded === '3' ? await listIdsFromLexicons(this.redis, this.keys, this.registry) : 0
      const dropped = recorded === '5' || recorded === '6' ? 0 : await dropSuggestionEntries(this.redis, this.keys, this.registry)
      const values = await dropPairedPostings(this.redis, this.keys, this.registry)
      process.stderr.write(`the native search index of KEY_PREFIX "${this.keys.prefix}" was brought from format ${recorded} to ${NATIVE_INDEX_FORMAT}: ${listed} urn values listed by their id, ${dropped} sets of autocomplete entries dropped, the postings of ${values} values of paired fields (names, descriptions, browse paths) dropped\n`)
      return this.markRebuilt()
    }
    const entities = await Promise.all(this.keys.allShards().map((shard) => this.redis.zcard(this.keys.entities(shard))))
    if (entities.some((n) => n > 0)) {
      process.stderr.write(`the native search index of KEY_PREFIX "${this.keys.prefix}" was written by an earlier version (format ${recorded ?? 1}, this one reads ${NATIVE_INDEX_FORMAT}): rebuild it with \`npm run svc -- restore --rebuild\`\n`)
      return
    }
    await this.markRebuilt()
  }

  /** Records that the index is in this version's format (a new store, or after `restore --rebuild`). */
  async markRebuilt(): Promise<void> {
    await this.redis.hset(this.keys.layout(), 'nativeIndex', NATIVE_INDEX_FORMAT)
  }

  /**
   * Copies into this process what its queries read (indexMirror.ts): every type's facet lines and words and the
   * pairs of its paired fields (descriptions, browse paths; names and titles, what CONTAIN, END_WITH and
   * autocomplete are asked of most, with their searches' lists and orders), in every shard, then keeps the copies
   * current in the background, KEEP_CURRENT_MS apart. A gateway reports ready once this is done.
   */
  async warmUp(): Promise<void> {
    // First, so that copies stay current even when a copy below fails (the next query makes it).
    this.mirror.keepCurrent(KEEP_CURRENT_MS)
    // Shards side by side (on a cluster their reads go to several servers), a shard's types one after another.
    await Promise.all(this.keys.allShards().map(async (shard) => {
      for (const entity of this.registry.entities) {
        const paired = [...this.registry.searchFields(entity).values()].filter(pairedField)
        await this.mirror.warm(shard, entity.name, paired.map((f) => f.name), paired.filter((f) => f.autocomplete).map((f) => f.name))
      }
    }))
  }

  async close(): Promise<void> {
    this.mirror.stop()
  }

  indexKeyPatterns(): string[] {
    return [`${this.keys.prefix}{*}:ix:*`, `${this.keys.prefix}{*}:doc:*`]
  }

  /** The index prefix of a type in a shard, and the keys a query script declares (the type's live set). */
  private scriptTarget(shard: number, entity: EntitySpec): { prefix: string; keys: string[]; tmp: string } {
    const prefix = this.keys.nativeIndex(shard, entity.name, '').slice(0, -1)
    return { prefix, keys: [`${prefix}live:`], tmp: `${this.keys.temporary(shard)}${randomUUID()}:` }
  }

  async searchShard(shard: number, query: SearchQuery, from: number, size: number, { documents = false, facetValues = Infinity }: ShardOptions = {}): Promise<ShardHits> {
    // Writes acknowledged before now are in the answer: the copy of the index is read as of this moment.
    const asOf = performance.now()
    const words = query.text.kind === 'words' ? query.text.words : []
    const must: Criterion[] = query.text.kind === 'field'
      ? [{ field: query.text.field, condition: 'EQUAL', values: [query.text.value], negated: false, numeric: false }]
      : []
    const fields = this.registry.searchFields(query.entity)
    const stretched = query.text.kind === 'all' ? await this.stretchAnswer(shard, query.entity, fields, query.filter, from, size, asOf) : undefined
    if (stretched) return stretched
    // One criterion, EQUAL on a facet field (`field:value`, or `*` with a facet picked).
    const only = must.length === 1 && query.filter.length === 0 ? must[0] : must.length === 0 && query.filter.length === 1 && query.filter[0]!.length === 1 ? query.filter[0]![0] : undefined
    const valued = only && !documents && words.length === 0 ? await this.valueAnswer(shard, query.entity, fields, only, from, size, asOf) : undefined
    if (valued) return valued
    // A filter of facet values and names' conditions is checked on this process's copies (localFilter.ts), any
    // other filter is resolved to its documents by the script.
    const local = query.text.kind === 'field' ? null : await this.localFilter(shard, query.entity, fields, query.filter, asOf)
    // Words are matched on this process's copies (wordQuery.ts).
    if (words.length > 0) {
      const accepted = local ? undefined : await this.filterDocuments(shard, query.entity, query.filter, asOf)
      const keep = local ? checkedOn(local) : () => accepted
      const prior = this.guesses.get(query)?.get(shard)
      return this.answerWords(shard, query.entity, fields, words, keep, from, size, documents, asOf, prior?.from === from && prior.size === size ? prior : undefined)
    }
    // `*` and a name's condition (with facet values, or more such groups) is answered from the documents it found.
    const candidates = local ? localCandidates(local) : undefined
    if (candidates) {
      const copies = local!.length === 1 && local![0]!.length === 1 ? undefined : await this.mirror.facetCopiesOf(shard, query.entity.name, asOf)
      const accept = copies && localCheck(copies.facets, local!, copies.tallies)
      return this.answerHere(shard, query.entity, fields, documentSet(candidates.numbers, accept), candidates.fields, from, size, documents, asOf)
    }
    // `*` and a filter checked on the copies whose group lists no documents of its own, with a negated name in it
    // (`NOT name > m`): every document, checked on the copies; the script would have to list the name's values.
    if (local && query.text.kind === 'all' && local.some((group) => group.some((c) => 'numbers' in c && c.negated))) {
      return this.answerEveryChecked(shard, query.entity, fields, local, from, size, documents, asOf)
    }
    const names = facetNames(fields)
    // Facet counts read here while the script only pages: one criterion, EQUAL on a frequent facet value, whose
    // page's documents are read with it (its counts are kept: facetTallies.ts); or a match-all's when every value is
    // wanted (several shards: matchAllCounts), where the script would read each shard's largest only.
    const everyValueOfAll = query.text.kind === 'all' && query.filter.length === 0 && !Number.isFinite(facetValues)
    const tally = names.length === 0 ? undefined
      : only ? this.valueTally(shard, query.entity, fields, only, asOf)
        : everyValueOfAll ? this.matchAllCounts(shard, query.entity, asOf) : undefined
    const filter = await Promise.all(query.filter.map((group) => this.resolveInner(shard, query.entity, group, asOf)))
    const resolvedMust = await this.resolveInner(shard, query.entity, must, asOf)
    // The script's limit counts only for a match-all's facets, which it is never asked for when every value is
    // wanted (the tally above counts them): 0 then stands for the unbounded figure a script argument cannot hold.
    const script = (o: { from: number; size: number; facets: readonly string[]; documents: boolean }) =>
      this.runSearch(shard, query.entity, { ...o, documentsWanted: false, must: resolvedMust, filter, facetValues: Number.isFinite(facetValues) ? facetValues : 0 })
    const [[total, page, counted, bitmap, numbers, stored], tallied] = await Promise.all([script({ from, size, facets: tally ? [] : names, documents }), tally])
    const result: ShardHits = { total, hits: [], facets: [] }
    // Without words every hit scores 0 (the page is in urn order).
    for (const urn of page) result.hits.push({ urn: String(urn), score: 0 })
    if (documents) result.documents = stored.map((d) => (d ? String(d) : null))
    if (total === 0) return result
    if (tally && !tallied) {
      // The value stopped being one kept between the decision and the copy's read (rare): counted as any result.
      const [, , recounted, again, againNumbers] = await script({ from: 0, size: 0, facets: names, documents: false })
      result.counts = await this.scriptResultCounts(shard, query.entity, recounted, again, againNumbers, asOf)
    } else result.counts = tallied ? { shard, counts: tallied } : await this.scriptResultCounts(shard, query.entity, counted, bitmap, numbers, asOf)
    return result
  }

  /**
   * `*` with one criterion, a name's START_WITH or range over many documents, answered from the copy of the name's
   * pairs without reading its documents' values (pairsCopy.ts stretchAnswer: facets counted by blocks); undefined
   * for any other query, or when the copy counts them (a few, or a document with several names): answerHere then
   * answers from its documents.
   */
  private async stretchAnswer(shard: number, entity: EntitySpec, fields: ReadonlyMap<string, SearchField>, filter: FilterGroups, from: number, size: number, asOf: number): Promise<ShardHits | undefined> {
    const c = filter.length === 1 && filter[0]!.length === 1 ? filter[0]![0]! : undefined
    if (!c || c.negated || c.values.length !== 1 || c.condition === 'CONTAIN' || c.condition === 'END_WITH' || !pairedCondition(fields, c)) return undefined
    const [pairs, { facets }, { words }] = await Promise.all([this.mirror.pairsOf(shard, entity.name, c.field, asOf), this.mirror.facetCopiesOf(shard, entity.name, asOf), this.mirror.wordsOf(shard, entity.name, asOf)])
    const stretch = pairs?.stretchAnswer(c.condition as RangeCondition, c.values[0]!.toLowerCase(), facets)
    if (!stretch) return undefined
    const page = pageOf({ count: stretch.total, has: stretch.holds, numbers: () => Array.from(stretch.numbers()) }, from, size, [pairs!], words)
    const result: ShardHits = { total: stretch.total, hits: page.map((urn) => ({ urn, score: 0 })), facets: [] }
    if (stretch.total > 0 && facetNames(fields).length > 0) result.counts = { shard, counts: stretch.counts }
    return result
  }

  /**
   * `field:value` or `*` with one facet value picked, when the value is a kept one (facetTallies.ts: at least
   * NATIVE_TALLY_MIN documents have it, over the shards): answered from this process's copies, where the script
   * paged its posting (on a cluster, one script per shard and query): the total is the copy's count of the value's
   * documents, the facets its kept counts, and the page the first of its documents (a bitmap kept beside the
   * counts) in urn order, by the copy of the words' urn keys (each document's urn is among its words). Undefined
   * for any other criterion: the script answers it.
   */
  private async valueAnswer(shard: number, entity: EntitySpec, fields: ReadonlyMap<string, SearchField>, c: Criterion, from: number, size: number, asOf: number): Promise<ShardHits | undefined> {
    const criterion = facetCriterionOf(fields, c)
    const copied = this.mirror.copiedWords(shard, entity.name)
    // Decided on the copies as they are (no copy is made for it), then answered once they are current.
    if (!criterion || criterion.negated || !copied) return undefined
    const named = criterionValueIds(copied.facets, criterion)
    if (named.length !== 1 || !copied.tallies.keeps(named[0]!)) return undefined
    return this.valueOn(shard, await this.mirror.wordsOf(shard, entity.name, asOf), criterion, from, size)
  }

  /** The answer of a kept facet value on copies (valueAnswer), or undefined when they do not keep it. */
  private valueOn(shard: number, { words, facets, tallies }: CopiedWords, criterion: FacetCriterion, from: number, size: number): ShardHits | undefined {
    const ids = criterionValueIds(facets, criterion)
    const counts = ids.length === 1 ? tallies.ofValue(ids[0]!) : undefined
    const bitmap = counts && tallies.documentsOf(ids[0]!)
    if (!counts || !bitmap) return undefined
    // The first from + size of its documents by urn key, in one pass over the bitmap (520 documents of a shard of
    // 6,250: 5.4 us, where listing them, checking the list and then ordering it took 11). Every document is among the
    // words (its urn's); one that is not yet (the copies follow one log) leaves the query to the script.
    const keys: number[] = []
    const best: number[] = []
    let total = 0
    const whole = eachBit(bitmap, (n) => {
      const key = words.orderKey(n)
      if (Number.isNaN(key) || !words.has(n)) return false
      total++
      keepIfFirst(keys, best, from + size, key, n)
    })
    if (!whole) return undefined
    return { total, hits: best.slice(from).map((n) => ({ urn: words.urn(n), score: 0 })), facets: [], counts: { shard, counts } }
  }

  /** A script's result's facet counts: from its bitmap or its documents' numbers, counted here, or as it counted a match-all. */
  private async scriptResultCounts(shard: number, entity: EntitySpec, counted: ScriptAnswer[2], bitmap: Buffer, numbers: readonly number[], asOf: number): Promise<FacetCounts> {
    return bitmap.length > 0 ? this.countFacets(shard, entity, bitmap, asOf)
      : numbers.length > 0 ? this.countFacets(shard, entity, numbers, asOf)
        : scriptCounts(shard, this.mirror.facetValues(entity.name), counted)
  }

  /**
   * The facet counts of every live document of a shard as of `asOf` (a match-all's), every value's: the copy of
   * the facet values keeps each value's total. For several shards, whose counts are summed before the largest are
   * kept (limits.ts shardFacetValues), where the script reads each shard's largest (`fcnt:`) only.
   */
  private async matchAllCounts(shard: number, entity: EntitySpec, asOf: number): Promise<ValueCounts> {
    return (await this.mirror.facetCopiesOf(shard, entity.name, asOf)).facets.totalCounts()
  }

  /**
   * The kept facet counts of the documents that have one facet value (criterion `c`, EQUAL on a facet field naming
   * one value) as of `asOf`, or undefined when it does not name one kept value (facetTallies.ts). Decided on the copy
   * as it is (undefined at once when it is not one: the script then counts), read once the copy is current.
   */
  private valueTally(shard: number, entity: EntitySpec, fields: ReadonlyMap<string, SearchField>, c: Criterion, asOf: number): Promise<ValueCounts | undefined> | undefined {
    const criterion = facetCriterionOf(fields, c)
    const copied = this.mirror.copied(shard, entity.name)
    if (!criterion || criterion.negated || !copied) return undefined
    const ids = criterionValueIds(copied.facets, criterion)
    if (ids.length !== 1 || !copied.tallies.keeps(ids[0]!)) return undefined
    return (async () => {
      const { facets, tallies } = await this.mirror.facetCopiesOf(shard, entity.name, asOf)
      const now = criterionValueIds(facets, criterion)
      return now.length === 1 ? tallies.ofValue(now[0]!) : undefined
    })()
  }

  /** Runs the search script (search-2.lua) on one shard; strings come back as Buffers (the bitmap is bytes). */
  private async runSearch(shard: number, entity: EntitySpec, o: { from: number; size: number; documentsWanted: boolean; must: readonly Criterion[]; filter: FilterGroups; facets: readonly string[]; facetValues: number; documents: boolean }): Promise<ScriptAnswer> {
    const target = this.scriptTarget(shard, entity)
    const args = [
      target.prefix, target.tmp, String(o.from), String(o.size), String(this.maxValues), o.documentsWanted ? '1' : '0',
      ...encodeCriteria(o.must), ...encodeFilter(o.filter),
      String(o.facets.length), ...o.facets, String(o.facetValues), String(this.bitmapMin),
      o.documents ? this.keys.docPrefix(shard, entity.name) : '',
    ]
    return (await this.runScript(searchScript, target.keys, args, { buffers: true })) as ScriptAnswer
  }

  /**
   * Which documents of the shard a filter (not of facet values alone) accepts, as of `asOf`: the script resolves
   * it to its documents' numbers or bitmap (as it does for a result's facets), checked here by number. Cost: the
   * filter's, not the words'.
   */
  private async filterDocuments(shard: number, entity: EntitySpec, groups: FilterGroups, asOf: number): Promise<(number: number) => boolean> {
    const filter = await Promise.all(groups.map((group) => this.resolveInner(shard, entity, group, asOf)))
    const [, , , bitmap, numbers] = await this.runSearch(shard, entity, { from: 0, size: 0, documentsWanted: true, must: [], filter, facets: [], facetValues: 0, documents: false })
    // Bit n of a Redis bitmap is bit 7 - n % 8 of byte n / 8 (SETBIT numbers bits from the most significant).
    if (bitmap.length > 0) return (n) => hasBit(bitmap, n)
    const accepted = new Set(numbers)
    return (n) => accepted.has(n)
  }

  /**
   * Which documents of the shard a filter accepts, as of `asOf`: checked on this process's copies when they answer
   * every criterion (facet values, names' conditions: localFilter), with nothing of it sent to Redis; else resolved
   * by the script (filterDocuments).
   */
  private async acceptedBy(shard: number, entity: EntitySpec, groups: FilterGroups, asOf: number): Promise<(number: number) => boolean> {
    const local = await this.localFilter(shard, entity, this.registry.searchFields(entity), groups, asOf)
    if (!local) return this.filterDocuments(shard, entity, groups, asOf)
    return checkedOn(local)(await this.mirror.facetCopiesOf(shard, entity.name, asOf)) ?? (() => true)
  }

  /**
   * The filter's criteria resolved on this process's copies (localFilter.ts) when each is one they answer: a paired
   * condition's documents, however many (nothing of them goes to Redis); else null.
   */
  private async localFilter(shard: number, entity: EntitySpec, fields: ReadonlyMap<string, SearchField>, groups: FilterGroups, asOf: number): Promise<ResolvedCriterion[][] | null> {
    const criteria = localCriteriaOf(fields, groups)
    if (!criteria) return null
    return Promise.all(criteria.map((group) => Promise.all(group.map(async (c): Promise<ResolvedCriterion> =>
      'facet' in c ? c : { numbers: await this.pairedNumbers(shard, entity, c.paired, asOf), field: c.paired.field, negated: c.paired.negated }))))
  }

  /**
   * The numbers of the documents whose value of a paired field meets a criterion (any of its values; a document may
   * repeat), from this process's copy of the field's pairs as of `asOf`, however many (a range's are read from beside the
   * pairs: pairsCopy.ts numbersWhere).
   */
  private async pairedNumbers(shard: number, entity: EntitySpec, c: Criterion, asOf: number): Promise<Numbers> {
    const pairs = await this.mirror.pairsOf(shard, entity.name, c.field, asOf)
    if (!pairs) return []
    const lists = c.values.map((value) => pairs.numbersWhere(c.condition as PairCondition, value.toLowerCase()))
    return lists.length === 1 ? lists[0]! : lists.flatMap((list) => [...list])
  }

  /**
   * The urns of the documents whose value of a paired field meets a criterion (any of its values), for the script,
   * from this process's copy of the field's pairs as of `asOf`; more than the shard's share of MAX_FILTER_VALUES is
   * FILTER_TOO_BROAD.
   */
  private async pairedUrns(shard: number, entity: EntitySpec, c: Criterion, asOf: number): Promise<string[]> {
    const pairs = await this.mirror.pairsOf(shard, entity.name, c.field, asOf)
    const urns = new Set<string>()
    for (const value of c.values) {
      for (const pair of pairs?.pairsWhere(c.condition as PairCondition, value.toLowerCase(), this.maxValues) ?? []) urns.add(pairUrn(pair))
      if (urns.size > this.maxValues) throw tooBroad(`the filter ${c.field} ${c.condition} ${JSON.stringify(value)}`, urns.size, this.maxValues)
    }
    return [...urns]
  }

  /**
   * A query without words answered from the documents this process's copies found (`*` and a name's CONTAIN,
   * START_WITH, a range...: localFilter): every match scores 0, so the page is their urns in order (pageOf); the
   * facets are counted from their numbers, as for a script's result. Redis only gives the page's documents.
   */
  private async answerHere(shard: number, entity: EntitySpec, fields: ReadonlyMap<string, SearchField>, found: DocumentSet, pairFields: readonly string[], from: number, size: number, documents: boolean, asOf: number): Promise<ShardHits> {
    const copies = (await Promise.all(pairFields.map((field) => this.mirror.pairsOf(shard, entity.name, field, asOf)))).filter((c) => c !== undefined)
    const { words } = await this.mirror.wordsOf(shard, entity.name, asOf)
    const page = pageOf(pagedSet(found), from, size, copies, words)
    const names = facetNames(fields)
    const result: ShardHits = { total: found.count, hits: page.map((urn) => ({ urn, score: 0 })), facets: [] }
    if (found.count > 0 && names.length > 0) result.counts = await this.countFacets(shard, entity, found.numbers ?? found.bitmap, asOf, found.count)
    if (documents) result.documents = await this.pageDocuments(entity, page)
    return result
  }

  /**
   * A match-all's documents that the copies' check of `groups` accepts (localFilter.ts), each of the shard's live
   * documents looked at once (the words' copy has every one, with its urn): work in this process in proportion to
   * the shard's documents, none in Redis but the page's documents.
   */
  private async answerEveryChecked(shard: number, entity: EntitySpec, fields: ReadonlyMap<string, SearchField>, groups: readonly ResolvedCriterion[][], from: number, size: number, documents: boolean, asOf: number): Promise<ShardHits> {
    const { words, facets, tallies } = await this.mirror.wordsOf(shard, entity.name, asOf)
    const live: number[] = []
    for (let n = 0; n < words.documentLimit; n++) if (words.has(n)) live.push(n)
    return this.answerHere(shard, entity, fields, documentSet(live, localCheck(facets, groups, tallies)), [], from, size, documents, asOf)
  }

  /**
   * A query of words, answered from this process's copies of the words and facet values (wordQuery.ts) among the
   * documents `keep` accepts (made from the copies: undefined for every one): Redis only gives the page's documents.
   * When they are wanted and the copies are there, the answer is first worked out on the copies as they are, and its
   * page's documents are asked for in the same round trip as the copies' catch-up (their log read, which an answer
   * must wait for: every write acknowledged before the query is in it): when no document joined, left or moved in
   * the query's words' postings meanwhile (nor, for a filter checked on the copies, changed its facet values), that
   * answer stands and the query waited for Redis once; else it is worked out again on the caught-up copies. On
   * several shards the answer worked out early is guessPage's (`prior`), and the service reads the documents.
   */
  private async answerWords(shard: number, entity: EntitySpec, fields: ReadonlyMap<string, SearchField>, words: readonly QueryWord[], keep: (copies: { facets: FacetCopy; tallies: FacetTallies }) => ((number: number) => boolean) | undefined, from: number, size: number, documents: boolean, asOf: number, prior?: ShardGuess): Promise<ShardHits> {
    const early = prior?.early ?? (documents ? this.mirror.copiedWords(shard, entity.name) : undefined)
    let guess = prior?.guess
    if (!prior) guess = early && this.guessOn(early, fields, words, keep, from, size)
    const caughtUp = this.mirror.wordsOf(shard, entity.name, asOf)
    const guessedDocuments = documents && guess ? this.pageDocuments(entity, guess.page) : undefined
    // Not awaited when the guess does not stand (or the catch-up fails): its failure is then nobody's.
    guessedDocuments?.catch(() => {})
    const copies = await caughtUp
    const stands = guess !== undefined && copies.words === early!.words && copies.facets === early!.facets && sameItems(guess.stamp, this.stampOf(copies, guess))
    const matched = stands ? guess! : this.matchOn(copies, fields, words, keep, from, size)
    const { answer, page } = matched
    const result: ShardHits = { total: answer.total, hits: hitsOf(matched), facets: [] }
    // One word without a filter: its facet counts are kept (facetTallies.ts; a prefix's words: theirs summed, less
    // the documents they share), read now that the copies are current; its matches were not listed.
    const tallied = matched.tallied && (matched.single !== undefined ? copies.tallies.ofWord(matched.single) : copies.tallies.ofWords(matched.prefixWords!))
    if (answer.total > 0 && matched.faceted) result.counts = tallied ? { shard, counts: tallied } : await this.countFacets(shard, entity, countable(answer.numbers), asOf)
    if (documents) result.documents = stands && guessedDocuments ? await guessedDocuments : await this.pageDocuments(entity, page)
    return result
  }

  /** A query of words matched on copies as they are, or undefined when it is too broad there (the caught-up copies decide). */
  private guessOn(early: CopiedWords, fields: ReadonlyMap<string, SearchField>, words: readonly QueryWord[], keep: (copies: { facets: FacetCopy; tallies: FacetTallies }) => ((number: number) => boolean) | undefined, from: number, size: number): WordsMatched | undefined {
    try {
      return this.matchOn(early, fields, words, keep, from, size)
    } catch {
      return undefined
    }
  }

  /**
   * Several shards' page of a query of words (without a filter, or with one of facet values only), as the copies are
   * now, before they catch up: each shard's first start+count merged. The service reads these urns' documents beside
   * the catch-up and keeps them when the page it gets is the same, so that such a query waits for Redis once on a
   * cluster too (answerWords does the same within one shard). Each shard's guess is kept with the query and taken up
   * by its searchShard, which keeps it when it still stands (no change in the postings of its words), so the words
   * are matched once. Undefined for any other query, a page deeper than GUESSED_DEPTH, or while a shard has no copy
   * yet.
   */
  guessPage(query: SearchQuery, start: number, count: number): string[] | undefined {
    if (this.keys.shards === 1 || start + count > GUESSED_DEPTH || query.text.kind !== 'words') return undefined
    const fields = this.registry.searchFields(query.entity)
    const criteria = localCriteriaOf(fields, query.filter)
    if (!criteria || criteria.some((group) => group.some((c) => !('facet' in c)))) return undefined
    const keep = checkedOn(criteria as ResolvedCriterion[][])
    const guesses = new Map<number, ShardGuess>()
    const lists: Hit[][] = []
    for (const shard of this.keys.allShards()) {
      const early = this.mirror.copiedWords(shard, query.entity.name)
      const guess = early && this.guessOn(early, fields, query.text.words, keep, 0, start + count)
      if (!early || !guess) return undefined
      guesses.set(shard, { early, guess, from: 0, size: start + count })
      lists.push(hitsOf(guess))
    }
    this.guesses.set(query, guesses)
    return hitsRanked(lists, start, start + count).map((hit) => hit.urn)
  }

  /** A query of words matched on copies as they are (answerWords), with what tells whether it still stands. */
  private matchOn(copies: { words: WordCopy; facets: FacetCopy; tallies: FacetTallies }, fields: ReadonlyMap<string, SearchField>, words: readonly QueryWord[], keep: (copies: { facets: FacetCopy; tallies: FacetTallies }) => ((number: number) => boolean) | undefined, from: number, size: number): WordsMatched {
    const expansions = new Map<string, number[]>()
    for (const w of words.filter((w) => w.prefix)) {
      const found = copies.words.expand(w.token, this.maxValues)
      if (found.length > this.maxValues) throw tooBroad(`the word prefix ${JSON.stringify(w.token)}`, copies.words.expand(w.token, Infinity).length, this.maxValues)
      expansions.set(w.token, found)
    }
    const keeping = keep(copies)
    const faceted = facetNames(fields).length > 0
    const single = keeping || !faceted ? undefined : singleWord(copies.words, words, expansions)
    const prefixWords = keeping || !faceted || words.length !== 1 || !words[0]!.prefix ? undefined : expansions.get(words[0]!.token)
    const tallied = single !== undefined ? copies.tallies.keepsWord(single) : prefixWords !== undefined && prefixWords.length > 1 && copies.tallies.follows()
    const answer = matchWords(copies.words, words, expansions, keeping, from, size, !tallied)
    const ids = words.flatMap((w) => (w.prefix ? expansions.get(w.token) ?? [] : [copies.words.idOf(w.token) ?? -1]))
    const matched: WordsMatched = { answer, page: answer.page.map((m) => copies.words.urn(m.number)), single, prefixWords, tallied, faceted, ids, keeping: keeping !== undefined, stamp: [] }
    matched.stamp = this.stampOf(copies, matched)
    return matched
  }

  /** What an answer of words read of the copies (answerWords): its words' postings, and values for a filter on them. */
  private stampOf(copies: { words: WordCopy; facets: FacetCopy }, matched: WordsMatched): number[] {
    return [...copies.words.stamp(matched.ids), matched.keeping ? copies.facets.generation : 0]
  }

  /** The stored documents of a page's urns (field `d`), null for one without. */
  private pageDocuments(entity: EntitySpec, urns: readonly string[]): Promise<(string | null)[]> {
    return readDocuments(this.redis, this.keys, entity.name, urns)
  }

  /** The facet counts of a result, counted here from its documents (a bitmap or their numbers) as of `asOf`. */
  private async countFacets(shard: number, entity: EntitySpec, documents: Buffer | readonly number[], asOf: number, count?: number): Promise<FacetCounts> {
    return { shard, counts: await this.mirror.countFacets(shard, entity.name, documents, asOf, count) }
  }

  /**
   * The shards' facet counts summed by lower-cased value (one value spelled differently in two shards is one
   * bucket, as on one server), each field's `limit` most frequent values (ties by value), shown in their original
   * spelling (the field's `valo:` hash in a shard that has the value, remembered by the copy; a URN field's facet
   * keyed by the urn's id where it says so). Only the values shown are spelled.
   */
  async facetsOf(entity: EntitySpec, counts: readonly FacetCounts[], limit: number): Promise<Facet[]> {
    const fields = this.registry.searchFields(entity)
    const values = this.mirror.facetValues(entity.name)
    // Summed by value id; `from`: the first shard whose counts have the value (it spells it).
    const sums = new Uint32Array(values.size)
    const from = new Int32Array(values.size).fill(-1)
    counts.forEach((shard, k) => {
      const list = shard.counts
      for (let id = 0; id < list.length; id++) {
        const n = list[id]!
        if (n === 0) continue
        if (from[id] === -1) from[id] = k
        sums[id] += n
      }
    })
    const ranks = values.ranks()
    const shown = facetNames(fields).map((name) => {
      const ids = firstK(values.idsOf(name).filter((id) => sums[id]! > 0), limit, (a, b) => sums[b]! - sums[a]! || ranks[a]! - ranks[b]!)
      const holders = ids.map((id) => counts[from[id]!]!)
      const lowers = ids.map((id) => values.lower(id))
      return { name, ids, holders, lowers, spelled: this.knownSpellings(entity, name, holders, lowers) }
    })
    // Values whose spelling no copy remembers yet are read from a shard that has them (then remembered); most
    // answers need none, and are made without waiting.
    const unspelled = shown.filter((f) => f.spelled.includes(undefined))
    if (unspelled.length > 0) await Promise.all(unspelled.map(async (f) => { f.spelled = await this.spellings(entity, f.name, f.holders, f.spelled, f.lowers) }))
    return shown.map(({ name, ids, spelled }) => {
      const aggregations = emptyBuckets()
      const byId = fields.get(name)?.facetKey === 'id'
      ids.forEach((id, i) => addTo(aggregations, byId ? urnId(spelled[i]!) : spelled[i]!, sums[id]!))
      return { name, aggregations }
    })
  }

  /** The spellings of values `lowers` of `field` known here: the counts' own (a script's), else their shard's copy's. */
  private knownSpellings(entity: EntitySpec, field: string, from: readonly FacetCounts[], lowers: readonly string[]): (string | undefined)[] {
    let shard = -1
    let known: ReadonlyMap<string, string> | undefined
    return lowers.map((lower, i) => {
      const counts = from[i]!
      const spelled = counts.originals?.get(field)?.get(lower)
      if (spelled !== undefined) return spelled
      if (counts.shard !== shard) known = this.mirror.knownOriginals(shard = counts.shard, entity.name, field)
      return known?.get(lower)
    })
  }

  /**
   * The original spellings of values `lowers` of `field` (`known`: those known already), each from the counts of a
   * shard that has it.
   */
  private async spellings(entity: EntitySpec, field: string, from: readonly FacetCounts[], known: readonly (string | undefined)[], lowers: readonly string[]): Promise<string[]> {
    const out = [...known]
    // Positions still unspelled, by the shard to ask.
    const byShard = positionsBy(out, (known, i) => (known === undefined ? from[i]!.shard : undefined))
    await Promise.all([...byShard].map(async ([shard, at]) => {
      const read = await this.mirror.originals(shard, entity.name, field, at.map((i) => lowers[i]!))
      at.forEach((i, k) => { out[i] = read[k]! })
    }))
    return out as string[]
  }

  async urnsAfter(shard: number, entity: EntitySpec, after: string | undefined, limit: number, descending: boolean): Promise<string[]> {
    return lexRange(this.redis, this.keys.nativeIndex(shard, entity.name, 'live'), after, limit, descending)
  }

  /**
   * Criteria with CONTAIN or END_WITH on a string field (or the urn) turned into EQUAL on the values (urns) of the
   * shard that match, found in this process's copy of the field's lexicon (the live set for the urn), current as of
   * the call; EQUAL on a URN field into EQUAL_OR_ID; on a paired field (names, descriptions, browse paths) into
   * URNS, the urns whose value matches, found in the copy of its pairs (START_WITH and the ranges too, read in
   * their order); other criteria unchanged. Urns compare without regard to case; field values are lower-cased
   * already.
   */
  private async resolveInner(shard: number, entity: EntitySpec, criteria: readonly Criterion[], asOf = performance.now()): Promise<Criterion[]> {
    const fields = this.registry.searchFields(entity)
    return Promise.all(criteria.map(async (c) => {
      // A paired field's documents, each once; their urns: the script makes them one set (URNS) rather than reading
      // a posting each.
      if (pairedCondition(fields, c)) return { ...c, field: 'urn', condition: URNS, values: await this.pairedUrns(shard, entity, c, asOf) }
      // A URN field's value also names the values whose id it is (`s3`: `urn:svc:dataplatform:s3`), which the script
      // finds in the field's ids (documentOps.ts): postings are kept by whole value only.
      if (!c.numeric && c.condition === 'EQUAL' && c.field !== 'urn' && fields.get(c.field)?.type === 'URN') return { ...c, condition: EQUAL_OR_ID }
      if (c.numeric || !(c.condition === 'CONTAIN' || c.condition === 'END_WITH')) return c
      // Values found (urns for the urn field).
      const field = c.field === 'urn' ? URN_LEXICON : c.field
      const found = new Set<string>()
      for (const value of c.values) {
        for (const v of await this.mirror.find(shard, entity.name, field, c.condition, value.toLowerCase(), asOf)) found.add(v)
        if (found.size > this.maxValues) throw tooBroad(`the filter ${c.field} ${c.condition} ${JSON.stringify(value)}`, found.size, this.maxValues)
      }
      return { ...c, condition: 'EQUAL', values: [...found] }
    }))
  }


  /**
   * Autocomplete, on this process's copies of the names (pairsCopy.ts: Redis keeps no suggestion entries): the values
   * of the first suggestion entries that start with the query (autocompleteScan of them, of every shard and
   * autocomplete field together, in entry order; with a filter, those whose documents it keeps: acceptedBy),
   * each value once, whole when its entry begins at the value's start, ranked (suggest.ts). The copies hold values
   * lower-cased and each pair's spelling beside it: each value is suggested as its documents (those the filter keeps)
   * write it, every distinct spelling once (`Orders` and `ORDERS` are two suggestions, as on the redisearch engine and
   * upstream), and the spellings ranked again. Redis is read only for the copies' catch-up with the log (and a filter
   * the copies do not answer); until stop 63 the spellings were read from the stored documents, the first 5 of each
   * value, so a spelling only later documents wrote was missed. Cost: a binary search and the entries read per copy,
   * and a binary search per copy and value shown for its spellings.
   */
  async autocomplete(query: AutocompleteQuery): Promise<string[]> {
    const text = normalizeSuggestion(query.query)
    // Suggestions come from the autocomplete fields' copies (paired fields all: pairedField).
    const fields = [...this.registry.searchFields(query.entity).values()].filter((f) => f.autocomplete && pairedField(f)).map((f) => f.name)
    if (text === '' || fields.length === 0) return []
    const asOf = performance.now()
    const filtered = query.filter.length > 0
    const scan = autocompleteScan(query.limit, filtered)
    const sources = (await Promise.all(this.keys.allShards().map(async (shard): Promise<SuggestionSource[]> => {
      const copies = (await Promise.all(fields.map((field) => this.mirror.pairsOf(shard, query.entity.name, field, asOf)))).filter((c) => c !== undefined)
      const keep = filtered ? await this.acceptedBy(shard, query.entity, query.filter, asOf) : undefined
      return copies.map((copy) => ({ copy, keep }))
    }))).flat()
    const spelled = suggestionsOn(sources, text, scan, query.limit).flatMap((s) => spellingsOf(sources, s.text).map((spelling) => ({ text: spelling, whole: s.whole })))
    return topSuggestions(spelled, query.limit).map((s) => s.text)
  }

}

/** A copy of a paired field's pairs autocomplete reads, and the filter's test of a document's number (none: all kept). */
interface SuggestionSource { copy: PairsCopy; keep?: (number: number) => boolean }

/**
 * The first `limit` suggestions (value, whether whole) of the first `scan` values of all `sources` together that start
 * with `text` and the first `scan` suggestion entries that do, in entry order (NativeEngine.autocomplete).
 */
function suggestionsOn(sources: readonly SuggestionSource[], text: string, scan: number, limit: number): { text: string; whole: boolean }[] {
  const first = (read: (copy: PairsCopy) => string[]) =>
    firstK(sources.flatMap((source) => read(source.copy).map((entry) => ({ entry, source }))), scan, (a, b) => byCodeUnits(a.entry, b.entry))
  // The whole matches, which rank first, are read apart: in the entries' order they may follow `scan` others.
  const wholes = first((copy) => copy.wholeSuggestionsFrom(text, scan))
  const found = new Map<string, { text: string; whole: boolean }>()
  for (const { entry, source } of [...wholes, ...first((copy) => copy.suggestionsFrom(text, scan))]) {
    const { text: from, value, number } = suggestionParts(entry)
    if (source.copy.urnOf(number) === undefined || (source.keep && !source.keep(number))) continue
    const known = found.get(value)
    // A value's entry from its start may come after one from a later word start (`orders` < `orders_x.orders`).
    if (known) known.whole ||= value === from
    else found.set(value, { text: value, whole: value === from })
  }
  return topSuggestions([...found.values()], limit)
}

/**
 * The spellings of a suggested value (`lower`, lower-cased) in the documents of every source (every shard and
 * autocomplete field) that its filter keeps, each once (pairsCopy.ts spellingsOf): a name written `Orders` in one
 * document and `ORDERS` in another is two suggestions, as on the redisearch engine.
 */
function spellingsOf(sources: readonly SuggestionSource[], lower: string): string[] {
  const found = new Set<string>()
  for (const { copy, keep } of sources) for (const spelling of copy.spellingsOf(lower, keep)) found.add(spelling)
  return found.size > 0 ? [...found] : [lower]
}
