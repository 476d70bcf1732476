/**
 * Restore indices: rebuilds search documents, browse entries and relationship edges from the stored rows (the
 * latest aspects, ordered by urn then aspect, gathered from every shard), and removes index entries no stored
 * row supports any more. Each selected entity is restated by a write item (`restate`) that the workers apply like
 * any other write, under the entity's compare-and-set (model/store/planRestate.ts): only workers change what is
 * stored for an entity. Every restored row is logged to the change log as a RESTATE.
 */
import { createHash } from 'node:crypto'
import type { ItemResult, WriteItem } from '../jobs.ts'
import type { Model } from './runtime.ts'
import { SEP } from '../store/keys.ts'
import { scanKeysMatching } from '../store/redis.ts'
import { parseUrn } from '../urn.ts'
import { selectRows, type RowFilters } from './restoreRows.ts'

/** Applies write items through the queues and waits for them (the gateway's writer, or the CLI's). */
export type Submit = (items: WriteItem[]) => Promise<ItemResult[]>

export interface RestoreArgs extends RowFilters {
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
  /** Rows that did not resolve (unknown urn or entity type, aspect gone from storage by the time it was restated). */
  ignored: number
  /** `start` for the next batch, or null when this batch reached the end. */
  nextStart: number | null
}

/** A batch of a whole restore (restoreFrom), with its last row (`after` for the next batch; null when it had none). */
export interface RestoreStep extends RestoreResult {
  last: string | null
}

/** A batch of rows as restate items: one per entity, applied by the workers. */
interface Batch { items: WriteItem[]; rows: number; scanned: number; ignored: number; more: boolean; last: string | null }

async function selectBatch(model: Model, args: RestoreArgs): Promise<Batch> {
  const { rows, scanned, more, empty } = await selectRows(model, args)
  const byUrn = new Map<string, string[]>()
  for (const [urn, aspect] of rows) byUrn.set(urn, [...(byUrn.get(urn) ?? []), aspect])
  // An entity with no latest aspect left (listed, or the one urn asked for) is restated with no rows: its index
  // entries go.
  for (const urn of empty) byUrn.set(urn, [])
  if (args.urn !== undefined && rows.length === 0 && args.start === 0 && await model.redis.exists(model.keys.latest(args.urn)) === 0) byUrn.set(args.urn, [])
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
    // Rows of aspects no longer stored are gone, so the rows after them moved up by as many.
    nextStart: batch.more ? start + batch.rows - missing : null,
    last: batch.last,
  }
}

/** How long the row a batch ended at is kept for the call that goes on from its `nextStart`. */
const CONTINUATION_SECONDS = 3600

/** The digest of a selection's filters in its continuation keys (a urn or pattern can be long). */
function filtersDigest(args: RowFilters): string {
  return createHash('sha1').update(JSON.stringify([args.urn ?? null, args.urnLike ?? null, args.aspect ?? null])).digest('hex')
}

/**
 * Restores one batch of rows (route 11 and the ops command): one restate item per entity, applied by the workers.
 * Clients page with `start` (upstream's restore job does): the row each batch ended at is kept (an hour, in Redis,
 * so any gateway finds it), and a call whose `start` is a `nextStart` answered before reads on from that row, in
 * commands bounded by its batch; any other `start` is walked to from the first row.
 */
export async function restoreIndices(model: Model, submit: Submit, args: RestoreArgs): Promise<RestoreResult> {
  const filters = filtersDigest(args)
  const after = args.after ?? (args.start > 0 ? (await model.redis.get(model.keys.restoreContinuation(filters, args.start))) ?? undefined : undefined)
  const batch = await selectBatch(model, { ...args, after })
  const { last, ...result } = batchResult(batch, args.start, batch.items.length > 0 ? await submit(batch.items) : [])
  if (result.nextStart !== null && last !== null) await model.redis.set(model.keys.restoreContinuation(filters, result.nextStart), last, 'EX', CONTINUATION_SECONDS)
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
