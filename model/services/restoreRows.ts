/**
 * Restore's rows: the latest aspects, ordered by (urn, aspect), as `urn SEP aspect`. No list of rows is kept: each
 * shard lists its entities (model/store/keys.ts `entities`: the urns in order) and an entity's rows are the fields of
 * its latest hash, in name order. A row list had cost six sorted-set members a dataset (~1.2 KB of ~10.6, and six
 * inserts into the shard's largest sorted set on each new dataset); the entity list costs one.
 * Every command is bounded: the urns are read URN_CHUNK at a time by range, each with one HKEYS of a few fields. A
 * `start` deep into the rows is walked to (as a SQL OFFSET is), in commands of that size.
 */
import type { Model } from './runtime.ts'
import { SEP } from '../store/keys.ts'

/** Urns read per command (their aspects' names follow in one pipeline). */
const URN_CHUNK = 500

/** An SQL LIKE pattern (`%` any run, `_` one character, `\` escapes) as a regular expression. */
export function likeToRegExp(pattern: string): RegExp {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\' && i + 1 < pattern.length) source += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    else if (c === '%') source += '[\\s\\S]*'
    else if (c === '_') source += '[\\s\\S]'
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/** The literal prefix of a LIKE pattern (everything before its first wildcard). */
export function likePrefix(pattern: string): string {
  let prefix = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '%' || c === '_') break
    prefix += c === '\\' && i + 1 < pattern.length ? pattern[++i]! : c
  }
  return prefix
}

/** What restore selects: one urn, urns like a pattern, one aspect (each optional). */
export interface RowFilters {
  urn?: string
  aspect?: string
  urnLike?: string
}

/** The urns a selection can name, as a ZRANGE BYLEX range of the entity lists, and the test of each row. */
interface Selection {
  /** The urns' literal prefix ('' for all). */
  prefix: string
  min: string
  max: string
  /** Whether a row of the range can fail `matches` (a pattern beyond its prefix, or an aspect). */
  filtered: boolean
  matches(urn: string, aspect: string): boolean
  /** Whether an urn is one the filters name (whatever its aspects). */
  matchesUrn(urn: string): boolean
}

function selectionOf(f: RowFilters): Selection {
  const prefix = f.urn ?? (f.urnLike !== undefined ? likePrefix(f.urnLike) : '')
  // A pattern that is a literal prefix and a final % is a plain range of urns: no per-row test.
  const prefixOnly = f.urnLike !== undefined && f.urnLike === `${likePrefix(f.urnLike).replace(/[%_\\]/g, '\\$&')}%`
  const like = f.urnLike !== undefined && !prefixOnly ? likeToRegExp(f.urnLike) : undefined
  const matchesUrn = (urn: string): boolean => (f.urn === undefined || urn === f.urn) && (!like || like.test(urn))
  return {
    prefix,
    min: f.urn !== undefined ? `[${f.urn}` : prefix ? `[${prefix}` : '-',
    max: f.urn !== undefined ? `[${f.urn}` : prefix ? `[${prefix}\xff` : '+',
    filtered: like !== undefined || f.aspect !== undefined,
    matches: (urn, aspect) => (f.aspect === undefined || aspect === f.aspect) && matchesUrn(urn),
    matchesUrn,
  }
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Up to `count` urns of a shard's entity list in `min`..`max`, their rows in order, and those of them that have no
 * latest aspect (storage lost behind the service's back: restore clears their index entries).
 */
async function entityRows(model: Model, shard: number, min: string, max: string, count: number): Promise<{ urns: string[]; rows: string[]; empty: string[] }> {
  const urns = await model.redis.zrangebylex(model.keys.entities(shard), min, max, 'LIMIT', 0, count)
  const empty: string[] = []
  if (urns.length === 0) return { urns, rows: [], empty }
  const pipeline = model.redis.pipeline()
  for (const urn of urns) pipeline.hkeys(model.keys.latest(urn))
  const replies = (await pipeline.exec()) ?? []
  const rows: string[] = []
  urns.forEach((urn, i) => {
    const [err, aspects] = replies[i] ?? [new Error('no reply')]
    if (err) throw err
    if ((aspects as string[]).length === 0) empty.push(urn)
    for (const aspect of (aspects as string[]).sort(byCodeUnit)) rows.push(`${urn}${SEP}${aspect}`)
  })
  return { urns, rows, empty }
}

/** What a shard gave: its rows that match, how many rows it examined, the listed urns it met without a row. */
interface ShardRows {
  rows: string[]
  scanned: number
  empty: string[]
}

/**
 * One shard's rows that match, in order, after skipping `skip` of them, until `want` matched (or the shard ends),
 * and how many were examined past the skipped ones; after a known row (`after`: the last of the batch before), from
 * that row on.
 */
async function shardRows(model: Model, shard: number, sel: Selection, skip: number, want: number, after?: string): Promise<ShardRows> {
  const rows: string[] = []
  const empty: string[] = []
  let scanned = 0
  let toSkip = skip
  const afterUrn = after?.slice(0, after.indexOf(SEP))
  let min = afterUrn !== undefined && afterUrn >= sel.prefix ? `[${afterUrn}` : sel.min
  for (;;) {
    // Each urn has a row at least, so an unfiltered read needs no more urns than rows.
    const count = sel.filtered ? URN_CHUNK : Math.min(URN_CHUNK, toSkip + want - rows.length)
    const chunk = await entityRows(model, shard, min, sel.max, count)
    empty.push(...chunk.empty.filter((urn) => sel.matchesUrn(urn)))
    for (const row of chunk.rows) {
      if (after !== undefined && row <= after) continue
      const cut = row.indexOf(SEP)
      if (!sel.matches(row.slice(0, cut), row.slice(cut + 1))) {
        scanned++
        continue
      }
      if (toSkip > 0) {
        toSkip--
        continue
      }
      scanned++
      rows.push(row)
      if (rows.length === want) return { rows, scanned, empty }
    }
    if (chunk.urns.length < count) return { rows, scanned, empty }
    min = `(${chunk.urns[chunk.urns.length - 1]!}`
  }
}

/**
 * The batch of rows: `[urn, aspect]` pairs after skipping `start` matching rows (or after the row `after`), in
 * (urn, aspect) order; the rows examined; whether more follow; the listed urns met that have no row.
 */
export async function selectRows(model: Model, f: RowFilters & { start: number; batchSize: number; after?: string }): Promise<{ rows: [string, string][]; scanned: number; more: boolean; empty: string[] }> {
  const sel = selectionOf(f)
  // After a known row, every shard gives its next batch+1; without one, one shard skips `start` itself, and
  // several each give their first start+batch+1 (a resumed run's first batch), merged in one order.
  const keyed = f.after !== undefined
  const single = keyed || model.keys.shards === 1
  const want = single ? f.batchSize + 1 : f.start + f.batchSize + 1
  const parts = await Promise.all(model.keys.allShards().map((shard) => shardRows(model, shard, sel, single && !keyed ? f.start : 0, want, f.after)))
  const merged = parts.flatMap((p) => p.rows).sort(byCodeUnit)
  const page = single ? merged : merged.slice(f.start)
  const rows = page.slice(0, f.batchSize).map((member): [string, string] => {
    const cut = member.indexOf(SEP)
    return [member.slice(0, cut), member.slice(cut + 1)]
  })
  return { rows, scanned: parts.reduce((n, p) => n + p.scanned, 0), more: page.length > f.batchSize, empty: parts.flatMap((p) => p.empty) }
}

/** Entities sampled to estimate rows per entity (estimateRows). */
const SAMPLE = 200

/**
 * About how many rows the filters select at most (for a progress bar): the entities in their urns' range, times the
 * rows per entity of the first SAMPLE of them in each shard.
 */
export async function estimateRows(model: Model, f: RowFilters): Promise<number> {
  const sel = selectionOf(f)
  const parts = await Promise.all(model.keys.allShards().map(async (shard) => {
    const entities = await model.redis.zlexcount(model.keys.entities(shard), sel.min, sel.max)
    const sample = await entityRows(model, shard, sel.min, sel.max, SAMPLE)
    return sample.urns.length === 0 ? 0 : Math.round((entities * sample.rows.length) / sample.urns.length)
  }))
  return parts.reduce((a, b) => a + b, 0)
}
