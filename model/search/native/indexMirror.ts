/**
 * Native engine: this process's copy of the parts of an index that are cheap to read in bulk here and dear to read
 * inside Redis, where every microsecond holds the only thread every reader and writer shares:
 *   - the lexicons (values of a field, `vals:<f>`; urns, `live:`) that CONTAIN and END_WITH compare one by one
 *     (about 1 us per value in Redis; here it costs this process's CPU, which grows with the gateways); for a
 *     paired field (names, descriptions, browse paths: pairedField), each value with the urns and document
 *     numbers that have it (read from the stored documents: Redis keeps no posting of such a value), so that
 *     every condition on it resolves to documents;
 *   - every document's facet values (its facet line in `docs:`, by document number), so that the facets of a
 *     result (any but a match-all) are counted here from its documents' numbers or its bitmap, where Redis would
 *     AND the result with each shown value's bitmap (one BITOP and one BITCOUNT of N/8 bytes per value) or parse
 *     each document's facet line;
 *   - every document's words (wordCopy.ts, from `words:`), so that every query of words is answered here
 *     (wordQuery.ts): Redis keeps no posting per word, so a write costs it one hash field for the words of a
 *     document (instead of a sorted-set entry, and often a bitmap bit, per word), and a query of words none of its
 *     time but the log's read (and, with a filter other than facet values, the filter's own documents).
 *
 * Each index (type, shard) has a change log: the stream `ix:<type>:log:`, to which the apply script records a change
 * whenever a value enters or leaves a lexicon ({f, v, p}: LEXLOG), whenever a document gets or loses a value of a
 * paired field or writes it otherwise ({f, v, u, d, p, o}: PAIRLOG, d its document number, o its spelling where that is
 * not v), whenever a document's words change ({u, d, w}: WORDLOG, all of them) and whenever a document number gets a
 * new facet line or is freed ({n, l} or {n}: DOC, UNDOC), an apply's changes in one entry (logRecords), trimmed to
 * about logLength entries; `ix:<type>:logorigin:`
 * holds the id of the log's first entry. A part is copied on its first use, in short steps (ZRANGE BYLEX, HSCAN);
 * before every answer the copy reads the log from where it stopped (one XRANGE from the last entry read), so a write
 * acknowledged before the query is in it. When the log lost entries this copy had not read (trimmed past them, or begun
 * again after a rebuild deleted it: another origin), every part of that index is copied again. A gateway copies the
 * parts its queries read most before it reports ready (warm), and reads every copy's log in the background
 * (keepCurrent), so that a query reads only the last moment's entries and never a whole copy.
 */
import type { SearchField } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import type { RedisClient } from '../../store/redis.ts'
import { FacetCopy, FacetValues, type ValueCounts } from './facetCopy.ts'
import { FacetTallies } from './facetTallies.ts'
import { LexiconCopy } from './lexiconCopy.ts'
import { pairOf, PairsCopy } from './pairsCopy.ts'
import { WordCopy } from './wordCopy.ts'
import { lexRange } from '../../store/lexRange.ts'

/**
 * Entries the change logs of one type keep in all (XADD MAXLEN ~): a copy that falls further behind than its log
 * reaches copies its parts again. An entry is one apply's changes (3 for a new description, 7 for a new dataset);
 * until stop 69 it was one change, and the logs kept 100,000: as many changes, and as long a time, as 15,000 applies
 * of new datasets. Each of S shards' logs keeps 1/S of it (each gets about 1/S of the writes, so it spans the same
 * time), at least LOG_LENGTH_MIN: a cluster's 16 logs each kept the whole length until stop 68, so that at 100,000
 * datasets none had trimmed yet (~1.2 KB a dataset, where one server's log kept ~200 bytes a dataset).
 */
export const LOG_LENGTH = 15_000
/** Entries each shard's change log keeps at least (logLength). */
const LOG_LENGTH_MIN = 1_500

/** Entries one shard's change log keeps, of `shards` (LOG_LENGTH). */
export const logLength = (shards: number): number => Math.max(LOG_LENGTH_MIN, Math.ceil(LOG_LENGTH / shards))
/** The field name under which the live set's changes (urns) are logged. */
export const URN_LEXICON = 'urn'
/** The part that holds the documents' facet values. */
const FACETS = '\u0000facets'
/** The part that holds the documents' words (`words:`). */
const WORDS = '\u0000words'
/** The part that holds a paired field's `value \0 urn \0 document number` pairs: this, then the field's name. */
const PAIRS = '\u0000pairs\u0000'
/** Values, documents or log entries one command reads. */
const STEP = 1000

/** How a lexicon's values compare: urns (kept as written) lower-cased, field values as they are (lower-cased already). */
const lowerOf = (field: string) => field === URN_LEXICON ? (v: string) => v.toLowerCase() : (v: string) => v

/** The log keys of an index, as the apply ops name them. */
export function changeLog(keys: Keys, shard: number, entityType: string): { log: string; origin: string; maxlen: string } {
  return { log: keys.nativeIndex(shard, entityType, 'log'), origin: keys.nativeIndex(shard, entityType, 'logorigin'), maxlen: String(logLength(keys.shards)) }
}

/** The apply op that logs `value` entering or leaving the lexicon of `field` when the op before it did that (apply.lua). */
export function lexiconLogOp(keys: Keys, shard: number, entityType: string, field: string, value: string): Op {
  const { log, origin, maxlen } = changeLog(keys, shard, entityType)
  return ['LEXLOG', log, origin, field, value, maxlen]
}

/**
 * The changes one log entry records, each as field -> value (apply.lua "To log"): an apply writes one entry per log,
 * its only change's fields, or each of several changes after a `+` field; an entry written before stop 69 is one change.
 */
export function logRecords(fields: readonly string[]): Record<string, string>[] {
  const records: Record<string, string>[] = []
  let record: Record<string, string> | undefined
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === '+' || !record) {
      record = {}
      records.push(record)
      if (fields[i] === '+') continue
    }
    record[fields[i]!] = fields[i + 1]!
  }
  return records
}

/**
 * Whether the copies hold `field`'s values with the urns that have them (pairs), not its values alone: fields whose
 * values are nearly one per document, so that conditions on them resolve to documents here, and a query reads no
 * posting per matching value (~730 keys, ~3 ms of Redis, for a word's CONTAIN in 100,000 names), while a write
 * keeps no posting, lexicon entry or bitmap per value (a new description's posting, lexicon entry and their log
 * entry were a third of a datasetProperties change's apply script). They are the autocomplete fields (names,
 * titles), the free-text fields an entity has at most one value of (descriptions, qualified names, definitions)
 * and the fields declared `unique` (browse paths, which end with the entity's name): each value costs a gateway its
 * pair in memory (about the value and the urn), where Redis kept a key per value. A free-text field of many values
 * (a schema's field paths and field descriptions) keeps its postings: its values repeat across documents, and
 * copying them all would cost each gateway a multiple of them. Facet fields keep value lexicons.
 */
export function pairedField(field: SearchField): boolean {
  if (field.facet || field.name === URN_LEXICON) return false
  return field.autocomplete || field.unique || (field.type === 'TEXT' && !field.many)
}

/**
 * The apply op that logs that `urn`'s document has (`present`) or no longer has `value` (lower-cased) in a paired
 * field, written `original` when that is not `value` (logged then: the copies show every spelling): always when
 * `changed` (the document had another value or spelling), else only when the apply gives the document its number (a
 * new document, or one restated after its number was lost: apply.lua PAIRLOG).
 */
export function pairLogOp(keys: Keys, shard: number, entityType: string, field: string, value: string, urn: string, present: boolean, changed: boolean, original = value): Op {
  const { log, origin, maxlen } = changeLog(keys, shard, entityType)
  return ['PAIRLOG', log, origin, keys.nativeIndex(shard, entityType, 'docs'), field, value, urn, present ? '1' : '0', maxlen, changed ? '1' : '0', original === value ? '' : original]
}

/**
 * The apply op that keeps `urn`'s document's words now (wordCopy.ts encodeWords) in `words:` by its number (given
 * before) and logs them.
 */
export function wordLogOp(keys: Keys, shard: number, entityType: string, urn: string, words: string): Op {
  const { log, origin, maxlen } = changeLog(keys, shard, entityType)
  return ['WORDLOG', log, origin, keys.nativeIndex(shard, entityType, 'docs'), keys.nativeIndex(shard, entityType, 'words'), urn, words, maxlen]
}

/** The apply op that frees `urn`'s document number (its bit in the live bitmap, its words) and logs that. */
export function undocOp(keys: Keys, shard: number, entityType: string, urn: string): Op {
  const { log, origin, maxlen } = changeLog(keys, shard, entityType)
  const ix = (kind: string) => keys.nativeIndex(shard, entityType, kind)
  return ['UNDOC', ix('docs'), ix('free'), ix('lb'), ix('words'), urn, log, origin, maxlen]
}

/** One index's copied parts, and how far its log has been read. */
interface IndexCopy {
  shard: number
  entityType: string
  log: string
  origin: string
  /** The id of the log's first entry when it was read (null: the log had not begun). */
  began: string | null
  lexicons: Map<string, LexiconCopy>
  facets?: FacetCopy
  words?: WordCopy
  /** Facet counts kept for frequent words and values, following `words` and `facets`. */
  tallies: FacetTallies
  /**
   * Original spellings of facet values (by field, then lower-cased value, from `valo:<field>`), read once each: the
   * apply script sets one only when the value enters its lexicon, which it logs, and the log's entry drops it here.
   * `generation` counts those drops, so that a read that crossed one is not kept.
   */
  originals: Map<string, Map<string, string>>
  generation: number
  /** Parts asked for and not copied yet (lexicon fields, FACETS, WORDS). */
  wanted: Set<string>
  /** Whether the log has been read once (the cursor means something). */
  started: boolean
  /** The last log entry applied. */
  cursor: string
  /**
   * How many entries the log had been given up to the cursor: when more than that many have been trimmed from its
   * front, it lost entries this copy had not read.
   */
  seen: number
  /** When (performance.now()) the latest completed read of the log began. */
  readFrom: number
  /** The read of the log under way, and the one that follows it (for calls that arrived after it began). */
  running?: Promise<void>
  /** When (performance.now()) the read under way began. */
  runningFrom: number
  next?: Promise<void>
}

interface LogState { began: string | null; lastId: string; length: number; added: number }

export class IndexMirror {
  private readonly redis: RedisClient
  private readonly keys: Keys
  /**
   * The copies by type, then shard: a query looks its type's copy of every shard up several times (found by the
   * log's key name until stop 69, built and hashed on every look-up: ~2% of a cluster gateway's CPU).
   */
  private readonly copies = new Map<string, (IndexCopy | undefined)[]>()
  /** Each type's facet values, shared by its copies in every shard. */
  private readonly values = new Map<string, FacetValues>()
  private timer?: NodeJS.Timeout
  private stopped = false

  /** Documents a word or value of one index needs for its facet counts to be kept (facetTallies.ts). */
  private readonly tallyMin: number

  constructor(redis: RedisClient, keys: Keys, tallyMin = 1000) {
    this.redis = redis
    this.keys = keys
    this.tallyMin = tallyMin
  }

  /**
   * Copies the facet lines and the words of `entityType`'s index in `shard` and the pairs of the `paired` fields
   * now, as their first query would, so that no query waits for a whole copy (at 1,000,000 datasets the facet lines
   * are ~30 s of short reads), with the lists and orders their searches read for the `prepared` ones among them
   * (names, asked most: the others' are built on their first condition, and until then a change of a value costs
   * the copy no update of them, a description's ~100 trigrams among them).
   */
  async warm(shard: number, entityType: string, paired: readonly string[], prepared: readonly string[]): Promise<void> {
    const parts = [FACETS, WORDS, ...paired.map((field) => PAIRS + field)]
    // Asked together, they are copied by one read (the pairs of every paired field by one pass over the documents).
    const [copy] = await Promise.all(parts.map((part) => this.current(shard, entityType, part, performance.now())))
    for (const field of prepared) copy?.lexicons.get(PAIRS + field)?.prepare()
  }

  /**
   * Reads every copy's log every `everyMs`: a query then reads the few entries since the last read, and a copy never
   * falls so far behind that the log is trimmed past what it read (which would copy it whole again inside a query:
   * a load of 1,000,000 datasets writes ~10 times LOG_LENGTH entries). A failed read is left to the next query,
   * which reports it.
   */
  keepCurrent(everyMs: number): void {
    if (this.stopped) return
    this.timer ??= setInterval(() => {
      for (const shards of this.copies.values()) {
        for (const copy of shards) {
          if (copy?.started && !copy.running) this.catchUp(copy, performance.now()).catch(() => {})
        }
      }
    }, everyMs).unref()
  }

  /** Stops keepCurrent's reads, for good (a warm-up that ends later does not start them). */
  stop(): void {
    this.stopped = true
    clearInterval(this.timer)
    this.timer = undefined
  }

  /**
   * The values of `field` (URN_LEXICON: the urns) of `entityType`'s index in `shard` whose lower-cased form
   * contains `needle` (CONTAIN) or ends with it (END_WITH), current as of `asOf` (a `performance.now()`, by default
   * this call's): every write acknowledged before then is in the answer. `needle` is lower-cased.
   */
  async find(shard: number, entityType: string, field: string, condition: 'CONTAIN' | 'END_WITH', needle: string, asOf = performance.now()): Promise<string[]> {
    const copy = await this.current(shard, entityType, field, asOf)
    return copy.lexicons.get(field)?.find(condition, needle) ?? []
  }

  /**
   * The copy of the pairs of `entityType`'s index in `shard` for `field`, a paired field (pairedField), current as of
   * `asOf` as for find.
   */
  async pairsOf(shard: number, entityType: string, field: string, asOf = performance.now()): Promise<PairsCopy | undefined> {
    return (await this.current(shard, entityType, PAIRS + field, asOf)).lexicons.get(PAIRS + field) as PairsCopy | undefined
  }

  /**
   * Facet counts of the documents of a result, given by its bitmap (bit n = document n, most significant bit first,
   * as SETBIT numbers them; `count`, when known, its documents) or by their numbers: every value's count by its id
   * (facetValues). Documents' values as of `asOf` (as for find).
   */
  async countFacets(shard: number, entityType: string, documents: Buffer | readonly number[], asOf = performance.now(), count?: number): Promise<ValueCounts> {
    const facets = await this.facetsOf(shard, entityType, asOf)
    return Buffer.isBuffer(documents) ? facets.countBitmap(documents, count) : facets.countNumbers(documents)
  }

  /** The copy of the documents' facet values of `entityType`'s index in `shard`, current as of `asOf` (as for find). */
  async facetsOf(shard: number, entityType: string, asOf = performance.now()): Promise<FacetCopy> {
    return (await this.current(shard, entityType, FACETS, asOf)).facets!
  }

  /** The facet values of `entityType`, with the ids its copies count them by in every shard. */
  facetValues(entityType: string): FacetValues {
    let values = this.values.get(entityType)
    if (!values) this.values.set(entityType, (values = new FacetValues()))
    return values
  }

  /**
   * The copies of the documents' words and facet values of `entityType`'s index in `shard`, current as of `asOf` (as
   * for find), to answer a query of words here (wordQuery.ts).
   */
  async wordsOf(shard: number, entityType: string, asOf = performance.now()): Promise<{ words: WordCopy; facets: FacetCopy; tallies: FacetTallies }> {
    const copy = await this.current(shard, entityType, WORDS, asOf)
    if (!copy.facets) await this.current(shard, entityType, FACETS, asOf)
    return { words: copy.words!, facets: copy.facets!, tallies: copy.tallies }
  }

  /**
   * The copy of the documents' facet values of `entityType`'s index in `shard` and the counts kept beside it, as they
   * are (not brought up to date: for decisions a log read barely changes), or undefined when not copied yet.
   */
  copied(shard: number, entityType: string): { facets: FacetCopy; tallies: FacetTallies } | undefined {
    const copy = this.copyOf(shard, entityType)
    return copy?.facets ? { facets: copy.facets, tallies: copy.tallies } : undefined
  }

  /**
   * The copies of the words and facet values of `entityType`'s index in `shard`, as they are (not brought up to date:
   * for an answer worked out while they catch up, checked after: NativeEngine.answerWords), or undefined when either
   * is not copied yet.
   */
  copiedWords(shard: number, entityType: string): { words: WordCopy; facets: FacetCopy; tallies: FacetTallies } | undefined {
    const copy = this.copyOf(shard, entityType)
    return copy?.words && copy.facets ? { words: copy.words, facets: copy.facets, tallies: copy.tallies } : undefined
  }

  /**
   * The copy of the documents' facet values of `entityType`'s index in `shard` and the counts kept beside it
   * (facetTallies.ts), current as of `asOf` (as for find).
   */
  async facetCopiesOf(shard: number, entityType: string, asOf = performance.now()): Promise<{ facets: FacetCopy; tallies: FacetTallies }> {
    const copy = await this.current(shard, entityType, FACETS, asOf)
    return { facets: copy.facets!, tallies: copy.tallies }
  }

  /** The original spellings of `field`'s values this copy remembers (by lower-cased value), read nothing. */
  knownOriginals(shard: number, entityType: string, field: string): ReadonlyMap<string, string> | undefined {
    return this.copyOf(shard, entityType)?.originals.get(field)
  }

  /**
   * The original spellings of facet values `lowers` of `field` (from `valo:<field>`; the value itself where it has
   * none), remembered after the first read. Call after countFacets, which brought the copy up to date.
   */
  async originals(shard: number, entityType: string, field: string, lowers: readonly string[]): Promise<string[]> {
    const copy = this.copyOf(shard, entityType)
    // By field, then value: a query looks up every shown value of every shard.
    const ofField = copy?.originals.get(field)
    const known = (lower: string) => ofField?.get(lower)
    const missing = lowers.filter((lower) => known(lower) === undefined)
    if (missing.length > 0) {
      const generation = copy?.generation
      const read = await this.redis.hmget(this.keys.nativeIndex(shard, entityType, 'valo', field), ...missing)
      const found = new Map(missing.map((lower, i) => [lower, read[i] ?? lower]))
      if (copy && copy.generation === generation) {
        const kept = copy.originals.get(field) ?? new Map<string, string>()
        for (const [lower, original] of found) kept.set(lower, original)
        copy.originals.set(field, kept)
      }
      return lowers.map((lower) => known(lower) ?? found.get(lower)!)
    }
    return lowers.map((lower) => known(lower)!)
  }

  /** The copy of `entityType`'s index in `shard`, made or not. */
  private copyOf(shard: number, entityType: string): IndexCopy | undefined {
    return this.copies.get(entityType)?.[shard]
  }

  /**
   * The copy of an index with `part` copied, current as of `asOf`: brought up to date unless a read of the log that
   * began at or after `asOf` has completed (a query that reads the copy twice, or several queries at once, share one).
   */
  private async current(shard: number, entityType: string, part: string, asOf: number): Promise<IndexCopy> {
    let copy = this.copyOf(shard, entityType)
    if (!copy) {
      const log = this.keys.nativeIndex(shard, entityType, 'log')
      const origin = this.keys.nativeIndex(shard, entityType, 'logorigin')
      let shards = this.copies.get(entityType)
      if (!shards) this.copies.set(entityType, (shards = []))
      shards[shard] = copy = { shard, entityType, log, origin, began: null, lexicons: new Map(), tallies: new FacetTallies(this.tallyMin), originals: new Map(), generation: 0, wanted: new Set(), started: false, cursor: '0-0', seen: 0, readFrom: -Infinity, runningFrom: -Infinity }
    }
    if (part === FACETS ? !copy.facets : part === WORDS ? !copy.words : !copy.lexicons.has(part)) copy.wanted.add(part)
    if (copy.wanted.size > 0 || copy.readFrom < asOf) await this.catchUp(copy, asOf)
    return copy
  }

  /**
   * Brings the copy up to date with a read of the log that begins at or after `asOf`: one read at a time per index;
   * a call during a read that began before `asOf` (or that misses a part now wanted) waits for the next one, which
   * serves every call that arrived meanwhile.
   */
  private catchUp(copy: IndexCopy, asOf: number): Promise<void> {
    if (copy.running && copy.wanted.size === 0 && copy.runningFrom >= asOf) return copy.running
    if (!copy.running) {
      const startedAt = performance.now()
      copy.runningFrom = startedAt
      copy.running = this.readOnce(copy)
        .then(() => { copy.readFrom = Math.max(copy.readFrom, startedAt) })
        .finally(() => { copy.running = undefined })
      return copy.running
    }
    copy.next ??= copy.running.catch(() => {}).then(() => {
      copy.next = undefined
      return this.catchUp(copy, asOf)
    })
    return copy.next
  }

  /** Copies the parts that need it (new ones; all of them when the log lost entries not read), then reads the log. */
  private async readOnce(copy: IndexCopy): Promise<void> {
    // A copy that has read an entry of the log reads on from that entry, included: while it is still there, nothing
    // after it was trimmed (a log loses its oldest entries first, and one begun again has other ids), so one command
    // tells what is new. Where it is gone, or no entry was read yet, the log's state tells what was lost.
    if (copy.started && copy.wanted.size === 0 && copy.cursor !== '0-0') {
      const entries = (await this.redis.xrange(copy.log, copy.cursor, '+', 'COUNT', STEP + 1)) as [string, string[]][]
      if (entries[0]?.[0] === copy.cursor) {
        if (this.applyEntries(copy, entries.slice(1))) await this.readLog(copy)
        return
      }
    }
    // A copy of an index whose log had not begun (most types, in most shards) is current while the log has not:
    // one command, instead of the log's state and its entries (a gateway reads every copy every second).
    if (copy.started && copy.wanted.size === 0 && copy.cursor === '0-0' && copy.began === null && await this.redis.exists(copy.log) === 0) return
    // A copy with nothing new to copy reads the log's next entries in the same round trip as the log's state. The
    // entries are asked first: a state read after them tells whether entries the copy had not read were trimmed
    // (or the log begun again) before they were read.
    const ahead = copy.started && copy.wanted.size === 0 ? this.logEntries(copy) : undefined
    ahead?.catch(() => {}) // awaited below; a failure there is this read's failure
    const state = await this.logState(copy)
    const lost = copy.started && ((copy.began !== null && state.began !== copy.began) || state.added - state.length > copy.seen)
    const entries = await ahead
    if (entries && !lost) {
      if (this.applyEntries(copy, entries)) await this.readLog(copy)
      return
    }
    const held = [...copy.lexicons.keys(), ...(copy.facets ? [FACETS] : []), ...(copy.words ? [WORDS] : [])]
    const toCopy = lost || !copy.started ? [...new Set([...held, ...copy.wanted])] : [...copy.wanted]
    copy.wanted.clear()
    // Entries logged from here on are read after the copy and replayed over it: each states what its lexicon holds
    // or what its document's line is after it, so replaying one the copy already reflects changes nothing.
    if (lost || !copy.started) {
      copy.cursor = state.lastId
      copy.seen = state.added
      copy.originals.clear()
      copy.generation++
    }
    copy.began = state.began
    copy.started = true
    // The paired fields' pairs are copied together: one read of the stored documents gives them all.
    const paired = toCopy.filter((part) => part.startsWith(PAIRS)).map((part) => part.slice(PAIRS.length))
    try {
      await Promise.all([
        ...toCopy.filter((part) => !part.startsWith(PAIRS)).map((part) => part === FACETS ? this.copyFacets(copy) : part === WORDS ? this.copyWords(copy) : this.copyLexicon(copy, part)),
        ...(paired.length > 0 ? [this.copyPairs(copy, paired)] : []),
      ])
    } catch (err) {
      // Half copied: the next call copies everything again.
      for (const part of toCopy) copy.wanted.add(part)
      copy.started = false
      throw err
    }
    await this.readLog(copy)
  }

  private async logState(copy: IndexCopy): Promise<LogState> {
    const noLog = (err: unknown) => {
      if (/no such key/i.test(err instanceof Error ? err.message : '')) return null
      throw err
    }
    // Sent together (one round trip where the connection pipelines).
    const [began, raw] = await Promise.all([this.redis.get(copy.origin), (this.redis.call('XINFO', 'STREAM', copy.log) as Promise<unknown[]>).catch(noLog)])
    if (!raw) return { began, lastId: '0-0', length: 0, added: 0 }
    const info = new Map<string, unknown>()
    for (let i = 0; i < raw.length; i += 2) info.set(String(raw[i]), raw[i + 1])
    return {
      began,
      lastId: String(info.get('last-generated-id') ?? '0-0'),
      length: Number(info.get('length') ?? 0),
      added: Number(info.get('entries-added') ?? 0),
    }
  }

  /** A lexicon's values in order, one page of STEP per command (keyset paging: model/store/lexRange.ts). */
  private async *lexiconPages(key: string): AsyncGenerator<string[]> {
    for (let after: string | undefined; ;) {
      const page = await lexRange(this.redis, key, after, STEP, false)
      if (page.length > 0) yield page
      if (page.length < STEP) return
      after = page[page.length - 1]
    }
  }

  /** A hash's fields and values (`field, value, field, value...`), about STEP fields per command (HSCAN). */
  private async *hashPages(key: string): AsyncGenerator<string[]> {
    let cursor = '0'
    do {
      const [next, flat] = await this.redis.hscan(key, cursor, 'COUNT', STEP)
      if (flat.length > 0) yield flat
      cursor = next
    } while (cursor !== '0')
  }

  /** The reply to one command per key, sent in one pipeline (a failed command fails the whole). */
  private async pipelined(keys: readonly string[], send: (pipeline: ReturnType<RedisClient['pipeline']>, key: string) => void): Promise<unknown[]> {
    if (keys.length === 0) return []
    const pipeline = this.redis.pipeline()
    for (const key of keys) send(pipeline, key)
    const replies = (await pipeline.exec()) ?? []
    return keys.map((_, i) => {
      const [err, reply] = replies[i] ?? [new Error('no reply')]
      if (err) throw err
      return reply
    })
  }

  /** Copies one lexicon whole, STEP values per command. */
  private async copyLexicon(copy: IndexCopy, field: string): Promise<void> {
    const key = field === URN_LEXICON ? this.keys.nativeIndex(copy.shard, copy.entityType, 'live') : this.keys.nativeIndex(copy.shard, copy.entityType, 'vals', field)
    const values = new LexiconCopy(lowerOf(field))
    for await (const page of this.lexiconPages(key)) for (const v of page) values.add(v)
    copy.lexicons.set(field, values)
  }

  /**
   * Copies paired fields' pairs whole, from the stored documents (Redis keeps no posting of a paired field's value):
   * every document's number (`docs:`, about STEP per command) and its stored document's values (`doc:<urn>`, STEP
   * of them in one round trip), lower-cased as documentOps.ts indexes them.
   */
  private async copyPairs(copy: IndexCopy, fields: readonly string[]): Promise<void> {
    const copies = new Map(fields.map((field) => [field, new PairsCopy()]))
    for await (const flat of this.hashPages(this.keys.nativeIndex(copy.shard, copy.entityType, 'docs'))) {
      const urns: string[] = []
      const numbers: string[] = []
      for (let i = 0; i < flat.length; i += 2) {
        urns.push(flat[i]!)
        numbers.push(flat[i + 1]!.slice(0, flat[i + 1]!.indexOf('|')))
      }
      const stored = await this.pipelined(urns, (pipeline, urn) => pipeline.hget(this.keys.doc(copy.entityType, urn), 'd'))
      stored.forEach((d, i) => {
        if (typeof d !== 'string') return
        const values = JSON.parse(d) as Record<string, string[] | undefined>
        for (const [field, pairs] of copies) {
          // A value written twice in one document keeps its first spelling, as documentOps.ts logs it.
          const seen = new Set<string>()
          for (const v of values[field] ?? []) {
            const lower = v.toLowerCase()
            if (!seen.has(lower)) pairs.add(pairOf(lower, urns[i]!, numbers[i]!), v)
            seen.add(lower)
          }
        }
      })
    }
    for (const [field, pairs] of copies) {
      // The copy it replaces stops following the facet values (which may stay).
      ;(copy.lexicons.get(PAIRS + field) as PairsCopy | undefined)?.close()
      copy.lexicons.set(PAIRS + field, pairs)
    }
  }

  /** Copies every document's facet line (`docs:` holds urn -> `<number>|<line>`), STEP documents per command. */
  private async copyFacets(copy: IndexCopy): Promise<void> {
    const docs = this.keys.nativeIndex(copy.shard, copy.entityType, 'docs')
    const facets = new FacetCopy(this.facetValues(copy.entityType))
    for await (const flat of this.hashPages(docs)) {
      for (let i = 1; i < flat.length; i += 2) {
        const entry = flat[i]!
        const cut = entry.indexOf('|')
        facets.set(Number(entry.slice(0, cut)), entry.slice(cut + 1))
      }
    }
    // Read in the hash's order; counted in the numbers' order.
    facets.compact()
    copy.facets = facets
    copy.tallies.attach(copy.words, facets)
  }

  /** Copies every document's words (`words:` holds number -> `urn \0 words`), STEP documents per command. */
  private async copyWords(copy: IndexCopy): Promise<void> {
    const key = this.keys.nativeIndex(copy.shard, copy.entityType, 'words')
    const words = new WordCopy()
    for await (const flat of this.hashPages(key)) {
      for (let i = 0; i < flat.length; i += 2) {
        const entry = flat[i + 1]!
        const cut = entry.indexOf('\u0000')
        words.loadDocument(Number(flat[i]), entry.slice(0, cut), entry.slice(cut + 1))
      }
    }
    words.seal()
    copy.words = words
    copy.tallies.attach(words, copy.facets)
  }

  /** The log's next entries after the cursor (at most STEP). */
  private async logEntries(copy: IndexCopy): Promise<[string, string[]][]> {
    return (await this.redis.xrange(copy.log, `(${copy.cursor}`, '+', 'COUNT', STEP)) as [string, string[]][]
  }

  /** Applies the log's entries after the cursor to the copied parts, until none is left. */
  private async readLog(copy: IndexCopy): Promise<void> {
    while (this.applyEntries(copy, await this.logEntries(copy)));
  }

  /** Applies log entries to the copied parts; answers whether more may follow (a full step was read). */
  private applyEntries(copy: IndexCopy, entries: [string, string[]][]): boolean {
    for (const [id, fields] of entries) {
      for (const record of logRecords(fields)) this.applyRecord(copy, record)
      copy.cursor = id
      copy.seen++
    }
    return entries.length === STEP
  }

  /** Applies one logged change to the copied parts. */
  private applyRecord(copy: IndexCopy, entry: Record<string, string>): void {
    if (entry.w !== undefined) {
      if (entry.d) copy.words?.set(Number(entry.d), entry.u!, entry.w)
    } else if (entry.n !== undefined) {
      copy.facets?.set(Number(entry.n), entry.l)
      if (entry.l === undefined) copy.words?.delete(Number(entry.n))
    } else if (entry.u !== undefined) {
      // A document without a number (none is live without one) has nothing to pair.
      const pairs = entry.d ? copy.lexicons.get(PAIRS + entry.f) as PairsCopy | undefined : undefined
      if (entry.p === '1') pairs?.add(pairOf(entry.v!, entry.u, entry.d!), entry.o)
      else pairs?.delete(pairOf(entry.v!, entry.u, entry.d!))
    } else {
      if (copy.originals.get(entry.f!)?.delete(entry.v!)) copy.generation++
      const lexicon = copy.lexicons.get(entry.f!)
      if (lexicon && entry.v !== undefined) {
        if (entry.p === '1') lexicon.add(entry.v)
        else lexicon.delete(entry.v)
      }
    }
  }
}
