/**
 * Native engine: this process's copy of the lexicons that CONTAIN and END_WITH look inside. No sorted set orders
 * values by their inside or their end, so those conditions compare every value of a field; done in Redis that is
 * a scan of the whole lexicon (about 1 us per value of Redis's only thread). Done here it costs this process's own
 * CPU, which scales out with the gateways, and Redis only serves a few short commands per query.
 *
 * Each index (type, shard) has a change log: the stream `ix:<type>:vlog:` to which the apply script appends
 * {f: field, v: value, p: 1|0} whenever a value enters or leaves a lexicon (LEXLOG, apply.lua), trimmed to about
 * LEXICON_LOG_LENGTH entries; `ix:<type>:vorigin:` holds the id of the log's first entry. A lexicon is copied on
 * its first use, in short ZRANGE BYLEX steps; before every answer the copy reads the log from where it stopped, so
 * a write acknowledged before the query is in it. When the log lost entries this copy had not read (trimmed past
 * them, or begun again after a rebuild deleted it: another origin), every lexicon of that index is copied again. Values are kept as the lexicon holds them: lower-cased for fields, as written for urns
 * (the live set), with a lower-cased form for the comparison.
 */
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import type { RedisClient } from '../../store/redis.ts'

/** Entries a change log keeps (XADD MAXLEN ~): a copy that falls further behind than this copies its lexicons again. */
export const LEXICON_LOG_LENGTH = 100_000
/** The field name under which the live set's changes (urns) are logged. */
export const URN_LEXICON = 'urn'
/** Values (log entries) one command reads. */
const STEP = 1000

/** The apply op that logs `value` entering or leaving the lexicon of `field` when the op before it did that (apply.lua). */
export function lexiconLogOp(keys: Keys, shard: number, entityType: string, field: string, value: string): Op {
  return ['LEXLOG', keys.nativeIndex(shard, entityType, 'vlog'), keys.nativeIndex(shard, entityType, 'vorigin'), field, value, String(LEXICON_LOG_LENGTH)]
}

/** One index's copied lexicons (value -> its lower-cased form), and how far its log has been read. */
interface IndexCopy {
  log: string
  origin: string
  /** The id of the log's first entry when it was read (null: the log had not begun). */
  began: string | null
  lexicons: Map<string, Map<string, string>>
  /** Lexicons asked for and not copied yet. */
  wanted: Set<string>
  /** Whether the log has been read once (the cursor means something). */
  started: boolean
  /** The last log entry applied. */
  cursor: string
  /**
   * How many entries the log had been given up to the cursor: when more than that many have been trimmed from its
   * front, it lost entries this copy had not read; when it has been given fewer in all, it was deleted and begun again.
   */
  seen: number
  /** The read of the log under way, and the one that follows it (for calls that arrived after it began). */
  running?: Promise<void>
  next?: Promise<void>
}

interface LogState { began: string | null; lastId: string; length: number; added: number }

export class LexiconMirror {
  private readonly redis: RedisClient
  private readonly keys: Keys
  private readonly copies = new Map<string, IndexCopy>()

  constructor(redis: RedisClient, keys: Keys) {
    this.redis = redis
    this.keys = keys
  }

  /**
   * The values of `field` (URN_LEXICON: the urns) of `entityType`'s index in `shard` whose lower-cased form
   * `matches`, current as of this call: every write acknowledged before it is in the answer.
   */
  async find(shard: number, entityType: string, field: string, matches: (lower: string) => boolean): Promise<string[]> {
    const copy = this.copyOf(shard, entityType)
    if (!copy.lexicons.has(field)) copy.wanted.add(field)
    await this.catchUp(copy, shard, entityType)
    const found: string[] = []
    for (const [value, lower] of copy.lexicons.get(field) ?? []) {
      if (matches(lower)) found.push(value)
    }
    return found
  }

  private copyOf(shard: number, entityType: string): IndexCopy {
    const log = this.keys.nativeIndex(shard, entityType, 'vlog')
    let copy = this.copies.get(log)
    if (!copy) this.copies.set(log, (copy = { log, origin: this.keys.nativeIndex(shard, entityType, 'vorigin'), began: null, lexicons: new Map(), wanted: new Set(), started: false, cursor: '0-0', seen: 0 }))
    return copy
  }

  /**
   * Brings the copy up to date with a read of the log that begins after this call: one read at a time per index;
   * a call during a read waits for the next one, which serves every call that arrived meanwhile.
   */
  private catchUp(copy: IndexCopy, shard: number, entityType: string): Promise<void> {
    if (!copy.running) {
      copy.running = this.readOnce(copy, shard, entityType).finally(() => { copy.running = undefined })
      return copy.running
    }
    copy.next ??= copy.running.catch(() => {}).then(() => {
      copy.next = undefined
      return this.catchUp(copy, shard, entityType)
    })
    return copy.next
  }

  /** Copies the lexicons that need it (new ones; all of them when the log lost entries not read), then reads the log. */
  private async readOnce(copy: IndexCopy, shard: number, entityType: string): Promise<void> {
    const state = await this.logState(copy)
    const lost = copy.started && ((copy.began !== null && state.began !== copy.began) || state.added - state.length > copy.seen)
    const toCopy = lost || !copy.started ? [...new Set([...copy.lexicons.keys(), ...copy.wanted])] : [...copy.wanted]
    copy.wanted.clear()
    // Entries logged from here on are read after the copy and replayed over it: each states what its lexicon holds
    // after it, so replaying one the copy already reflects changes nothing.
    if (lost || !copy.started) {
      copy.cursor = state.lastId
      copy.seen = state.added
    }
    copy.began = state.began
    copy.started = true
    try {
      await Promise.all(toCopy.map((field) => this.copyLexicon(copy, shard, entityType, field)))
    } catch (err) {
      // Half copied: the next call copies everything again.
      for (const field of toCopy) copy.wanted.add(field)
      copy.started = false
      throw err
    }
    await this.readLog(copy)
  }

  private async logState(copy: IndexCopy): Promise<LogState> {
    const began = await this.redis.get(copy.origin)
    let raw: unknown[]
    try {
      raw = (await this.redis.call('XINFO', 'STREAM', copy.log)) as unknown[]
    } catch (err) {
      if (/no such key/i.test(err instanceof Error ? err.message : '')) return { began, lastId: '0-0', length: 0, added: 0 }
      throw err
    }
    const info = new Map<string, unknown>()
    for (let i = 0; i < raw.length; i += 2) info.set(String(raw[i]), raw[i + 1])
    return {
      began,
      lastId: String(info.get('last-generated-id') ?? '0-0'),
      length: Number(info.get('length') ?? 0),
      added: Number(info.get('entries-added') ?? 0),
    }
  }

  /** Copies one lexicon whole, STEP values per command. */
  private async copyLexicon(copy: IndexCopy, shard: number, entityType: string, field: string): Promise<void> {
    const key = field === URN_LEXICON ? this.keys.nativeIndex(shard, entityType, 'live') : this.keys.nativeIndex(shard, entityType, 'vals', field)
    const values = new Map<string, string>()
    let from = '-'
    for (;;) {
      const page = (await this.redis.call('ZRANGE', key, from, '+', 'BYLEX', 'LIMIT', '0', String(STEP))) as string[]
      for (const v of page) values.set(v, field === URN_LEXICON ? v.toLowerCase() : v)
      if (page.length < STEP) break
      from = `(${page[page.length - 1]}`
    }
    copy.lexicons.set(field, values)
  }

  /** Applies the log's entries after the cursor to the copied lexicons. */
  private async readLog(copy: IndexCopy): Promise<void> {
    for (;;) {
      const entries = (await this.redis.xrange(copy.log, `(${copy.cursor}`, '+', 'COUNT', STEP)) as [string, string[]][]
      for (const [id, fields] of entries) {
        const entry: Record<string, string> = {}
        for (let i = 0; i < fields.length; i += 2) entry[fields[i]!] = fields[i + 1]!
        const lexicon = copy.lexicons.get(entry.f!)
        if (lexicon && entry.v !== undefined) {
          if (entry.p === '1') lexicon.set(entry.v, entry.f === URN_LEXICON ? entry.v.toLowerCase() : entry.v)
          else lexicon.delete(entry.v)
        }
        copy.cursor = id
        copy.seen++
      }
      if (entries.length < STEP) return
    }
  }
}
