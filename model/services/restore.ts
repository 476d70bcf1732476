/**
 * Restore indices: rebuilds search documents, browse entries and relationship edges from the stored rows (the
 * latest aspects, ordered by urn then aspect, gathered from every shard), and removes index entries no stored
 * row supports any more. Each selected entity is restated by a write item (`restate`) that the workers apply like
 * any other write, under the entity's compare-and-set (model/store/planRestate.ts): only workers change what is
 * stored for an entity. Every restored row is logged to the change log as a RESTATE.
 */
import type { ItemResult, WriteItem } from '../jobs.ts'
import type { Model } from './runtime.ts'
import { SEP } from '../store/keys.ts'
import { scanKeysMatching } from '../store/redis.ts'
import { parseUrn } from '../urn.ts'

/** Applies write items through the queues and waits for them (the gateway's writer, or the CLI's). */
export type Submit = (items: WriteItem[]) => Promise<ItemResult[]>

export interface RestoreArgs {
  urn?: string
  aspect?: string
  urnLike?: string
  start: number
  /**
   * The last row (`urn SEP aspect`) of the batch before, when known: the batch is then the rows after it, which each
   * shard reads from there (`start` only numbers it); without it, the rows after the first `start` ones.
   */
  after?: string
  batchSize: number
}

export interface RestoreResult {
  /** Rows examined to find the batch (including skipped and filtered ones). */
  rowsScanned: number
  /** Rows restored. */
  rowsRestored: number
  /** Entities whose indexes were restated. */
  entitiesRestored: number
  /** Rows that did not resolve (unknown urn or entity type, aspect missing from storage): dropped from the row list. */
  ignored: number
  /** `start` for the next batch, or null when this batch reached the end. */
  nextStart: number | null
}

/** A batch of a whole restore (restoreFrom), with its last row (`after` for the next batch; null when it had none). */
export interface RestoreStep extends RestoreResult {
  last: string | null
}

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

const SCAN_CHUNK = 2000

/**
 * One shard's rows that match, in order, until `want` matched (or the shard ends); and how many were examined.
 * Every command is bounded by the rows it returns, however deep `skip` is (the row list holds millions at a million
 * entities, and `ZRANGEBYLEX ... LIMIT skip` walks the skipped rows one by one: ~0.2 us each): unfiltered rows are
 * read by rank (`ZLEXCOUNT` finds where the range begins, `ZRANGE` by index reads from there), filtered ones in
 * chunks that each begin after the last row read; after a known row (`after`: the last of the batch before), both
 * from that row on, by range.
 */
async function shardRows(model: Model, shard: number, prefix: string, matches: (urn: string, aspect: string) => boolean, skip: number, want: number, filtered: boolean, after?: string): Promise<{ rows: string[]; scanned: number }> {
  const key = model.keys.rows(shard)
  if (after !== undefined && !filtered) {
    const rows = await model.redis.zrangebylex(key, `(${after}`, prefix ? `[${prefix}\xff` : '+', 'LIMIT', 0, want)
    return { rows, scanned: rows.length }
  }
  if (!filtered) {
    const first = prefix ? await model.redis.zlexcount(key, '-', `(${prefix}`) : 0
    const rows = (await model.redis.zrange(key, first + skip, first + skip + want - 1)).filter((row) => row.startsWith(prefix))
    return { rows, scanned: rows.length }
  }
  const rows: string[] = []
  let scanned = 0
  const max = prefix ? `[${prefix}\xff` : '+'
  const from = after !== undefined && (!prefix || after >= prefix) ? `(${after}` : prefix ? `[${prefix}` : '-'
  for (let min = from; rows.length < want;) {
    const chunk = await model.redis.zrangebylex(key, min, max, 'LIMIT', 0, SCAN_CHUNK)
    for (const member of chunk) {
      scanned++
      const cut = member.indexOf(SEP)
      if (matches(member.slice(0, cut), member.slice(cut + 1))) rows.push(member)
      if (rows.length === want) break
    }
    if (chunk.length < SCAN_CHUNK) break
    min = `(${chunk[chunk.length - 1]!}`
  }
  return { rows, scanned }
}

/** Selects the batch of rows: `[urn, aspect]` pairs after skipping `start` matching rows, in (urn, aspect) order. */
async function selectRows(model: Model, args: RestoreArgs): Promise<{ rows: [string, string][]; scanned: number; more: boolean }> {
  const prefix = args.urn !== undefined ? `${args.urn}${SEP}` : args.urnLike !== undefined ? likePrefix(args.urnLike) : ''
  // A pattern that is a literal prefix and a final % is a plain range of rows: no per-row test, direct offsets.
  const prefixOnly = args.urnLike !== undefined && args.urnLike === `${likePrefix(args.urnLike).replace(/[%_\\]/g, '\\$&')}%`
  const like = args.urnLike !== undefined && !prefixOnly ? likeToRegExp(args.urnLike) : undefined
  const matches = (urn: string, aspect: string): boolean =>
    (args.urn === undefined || urn === args.urn) && (args.aspect === undefined || aspect === args.aspect) && (!like || like.test(urn))
  const filtered = like !== undefined || args.aspect !== undefined
  // After a known row, every shard gives its next batch+1; without one, one shard can skip `start` itself, and
  // several each give their first start+batch+1 (a resumed run's first batch), merged in one order.
  const keyed = args.after !== undefined
  const single = keyed || (model.keys.shards === 1 && !filtered)
  const want = single ? args.batchSize + 1 : args.start + args.batchSize + 1
  const parts = await Promise.all(model.keys.allShards().map((shard) => shardRows(model, shard, prefix, matches, single && !keyed ? args.start : 0, want, filtered, args.after)))
  const merged = parts.flatMap((p) => p.rows).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const page = single ? merged : merged.slice(args.start)
  const rows = page.slice(0, args.batchSize).map((member): [string, string] => {
    const cut = member.indexOf(SEP)
    return [member.slice(0, cut), member.slice(cut + 1)]
  })
  return { rows, scanned: parts.reduce((n, p) => n + p.scanned, 0), more: page.length > args.batchSize }
}

/** A batch of rows as restate items: one per entity, applied by the workers. */
interface Batch { items: WriteItem[]; rows: number; scanned: number; ignored: number; more: boolean; last: string | null }

async function selectBatch(model: Model, args: RestoreArgs): Promise<Batch> {
  const { rows, scanned, more } = await selectRows(model, args)
  const byUrn = new Map<string, string[]>()
  for (const [urn, aspect] of rows) byUrn.set(urn, [...(byUrn.get(urn) ?? []), aspect])
  const items: WriteItem[] = []
  let ignored = 0
  for (const [urn, aspects] of byUrn) {
    try {
      items.push({ op: 'restate', urn, entityType: parseUrn(model.registry, urn).entity.name, aspects })
    } catch {
      // A row whose urn no longer parses (its entity type left the registry): nothing to restate.
      ignored += aspects.length
    }
  }
  const lastRow = rows[rows.length - 1]
  return { items, rows: rows.length, scanned, ignored, more, last: lastRow ? `${lastRow[0]}${SEP}${lastRow[1]}` : null }
}

/** What a batch selected at `start` restored once its items were applied (`results`). */
function batchResult(batch: Batch, start: number, results: ItemResult[]): RestoreStep {
  const missing = results.reduce((n, r) => n + (r.missing ?? 0), 0)
  return {
    rowsScanned: batch.scanned,
    rowsRestored: results.reduce((n, r) => n + (r.restored ?? 0), 0),
    entitiesRestored: batch.items.length,
    ignored: batch.ignored + missing,
    // Rows of aspects no longer stored were dropped from the row list, so the rows after them moved up by as many.
    nextStart: batch.more ? start + batch.rows - missing : null,
    last: batch.last,
  }
}

/** Restores one batch of rows (route 11 and the ops command): one restate item per entity, applied by the workers. */
export async function restoreIndices(model: Model, submit: Submit, args: RestoreArgs): Promise<RestoreResult> {
  const batch = await selectBatch(model, args)
  const { last: _, ...result } = batchResult(batch, args.start, batch.items.length > 0 ? await submit(batch.items) : [])
  return result
}

/** Batches a whole restore keeps in flight: the workers' partitions apply the next while one ends. */
export const RESTORE_IN_FLIGHT = 2

/**
 * Restores every row that `args` selects from its `start` (and `after`) on, batch after batch, with up to
 * RESTORE_IN_FLIGHT batches applying at once: each batch is the rows after the last row of the one before, read
 * from each shard from there (so no shard reads the rows before, however far the restore has come). `done` hears
 * of each batch in order once it and every batch before it are applied (its `nextStart` and `last` resume the
 * restore from there). Answers the rows restored.
 */
export async function restoreFrom(model: Model, submit: Submit, args: RestoreArgs, done: (step: RestoreStep) => Promise<void> | void = () => {}): Promise<number> {
  const applying: Promise<[Batch, ItemResult[]]>[] = []
  let restored = 0
  let start = args.start
  // The oldest batch in flight, reported once applied.
  const settle = async (): Promise<void> => {
    const [batch, results] = await applying.shift()!
    const result = batchResult(batch, start, results)
    start = result.nextStart ?? start
    restored += result.rowsRestored
    await done(result)
  }
  let after = args.after
  for (let more = true; more;) {
    const batch = await selectBatch(model, { ...args, start, after })
    const applied = (batch.items.length > 0 ? submit(batch.items) : Promise.resolve([])).then((results): [Batch, ItemResult[]] => [batch, results])
    // A failure is thrown when its batch is settled; batches still in flight then end on their own.
    applied.catch(() => {})
    applying.push(applied)
    more = batch.more && batch.last !== null
    after = batch.last ?? after
    if (applying.length >= RESTORE_IN_FLIGHT) await settle()
  }
  while (applying.length > 0) await settle()
  return restored
}

/** Restores every row; answers the rows restored. */
export function restoreAll(model: Model, submit: Submit, batchSize: number): Promise<number> {
  return restoreFrom(model, submit, { start: 0, batchSize })
}

/**
 * Urns the search indexes list (stored documents, native live sets) that have no stored rows. Entries that no
 * document explains (a stray urn in a posting or a browse folder) are only dropped by a full rebuild.
 */
export async function orphanedUrns(model: Model): Promise<string[]> {
  const { redis, keys } = model
  const candidates = new Set<string>()
  // Every type's stored documents, in one SCAN of the keyspace (a pass per type and shard had been 34 passes).
  const types = new Set(model.registry.entities.map((e) => e.name))
  const prefixes = keys.allShards().map((shard) => keys.documentsPrefix(shard))
  await scanKeysMatching(redis, prefixes.map((p) => `${p}*`), async (batch) => {
    for (const key of batch) {
      const rest = key.slice(prefixes.find((p) => key.startsWith(p))!.length)
      const cut = rest.indexOf(':')
      if (cut > 0 && types.has(rest.slice(0, cut))) candidates.add(rest.slice(cut + 1))
    }
  })
  for (const entity of model.registry.entities) {
    for (const shard of keys.allShards()) {
      for (const urn of await redis.zrange(keys.nativeIndex(shard, entity.name, 'live'), 0, -1)) candidates.add(urn)
    }
  }
  const urns = [...candidates]
  const exists = await Promise.all(urns.map((urn) => redis.exists(keys.latest(urn))))
  return urns.filter((_, i) => exists[i] === 0)
}

/** Removes the index entries of urns that have no rows any more (restate items with no rows); answers how many. */
export async function sweepOrphans(model: Model, submit: Submit): Promise<number> {
  const items: WriteItem[] = []
  for (const urn of await orphanedUrns(model)) {
    try {
      items.push({ op: 'restate', urn, entityType: parseUrn(model.registry, urn).entity.name, aspects: [] })
    } catch { /* not a urn of this registry: a full rebuild drops it */ }
  }
  if (items.length > 0) await submit(items)
  return items.length
}

/** Key patterns of every index (search engine, browse, edges) in every shard: a full rebuild deletes them first. */
export function indexKeyPatterns(model: Model): string[] {
  const p = model.keys.prefix
  return [...model.engine.indexKeyPatterns(), `${p}{*}:br:*`, `${p}{*}:out:*`, `${p}{*}:in:*`]
}
