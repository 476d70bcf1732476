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
import { scanKeys } from '../store/redis.ts'
import { parseUrn } from '../urn.ts'

/** Applies write items through the queues and waits for them (the gateway's writer, or the CLI's). */
export type Submit = (items: WriteItem[]) => Promise<ItemResult[]>

export interface RestoreArgs {
  urn?: string
  aspect?: string
  urnLike?: string
  start: number
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
 * chunks that each begin after the last row read.
 */
async function shardRows(model: Model, shard: number, prefix: string, matches: (urn: string, aspect: string) => boolean, skip: number, want: number, filtered: boolean): Promise<{ rows: string[]; scanned: number }> {
  const key = model.keys.rows(shard)
  if (!filtered) {
    const first = prefix ? await model.redis.zlexcount(key, '-', `(${prefix}`) : 0
    const rows = (await model.redis.zrange(key, first + skip, first + skip + want - 1)).filter((row) => row.startsWith(prefix))
    return { rows, scanned: rows.length }
  }
  const rows: string[] = []
  let scanned = 0
  const max = prefix ? `[${prefix}\xff` : '+'
  for (let min = prefix ? `[${prefix}` : '-'; rows.length < want;) {
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
  // One shard can skip `start` itself; several each give their first start+batch+1, merged in one order.
  const single = model.keys.shards === 1 && !filtered
  const want = single ? args.batchSize + 1 : args.start + args.batchSize + 1
  const parts = await Promise.all(model.keys.allShards().map((shard) => shardRows(model, shard, prefix, matches, single ? args.start : 0, want, filtered)))
  const merged = parts.flatMap((p) => p.rows).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const page = single ? merged : merged.slice(args.start)
  const rows = page.slice(0, args.batchSize).map((member): [string, string] => {
    const cut = member.indexOf(SEP)
    return [member.slice(0, cut), member.slice(cut + 1)]
  })
  return { rows, scanned: parts.reduce((n, p) => n + p.scanned, 0), more: page.length > args.batchSize }
}

/** Restores one batch of rows (route 11 and the ops command): one restate item per entity, applied by the workers. */
export async function restoreIndices(model: Model, submit: Submit, args: RestoreArgs): Promise<RestoreResult> {
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
  const results = items.length > 0 ? await submit(items) : []
  const rowsRestored = results.reduce((n, r) => n + (r.restored ?? 0), 0)
  const missing = results.reduce((n, r) => n + (r.missing ?? 0), 0)
  return {
    rowsScanned: scanned,
    rowsRestored,
    entitiesRestored: items.length,
    ignored: ignored + missing,
    // Rows of aspects no longer stored were dropped from the row list, so the rows after them moved up by as many.
    nextStart: more ? args.start + rows.length - missing : null,
  }
}

/** Restores every row, batch after batch; answers the rows restored. */
export async function restoreAll(model: Model, submit: Submit, batchSize: number): Promise<number> {
  let restored = 0
  for (let start: number | null = 0; start !== null;) {
    const result: RestoreResult = await restoreIndices(model, submit, { start, batchSize })
    restored += result.rowsRestored
    start = result.nextStart
  }
  return restored
}

/**
 * Urns the search indexes list (stored documents, native live sets) that have no stored rows. Entries that no
 * document explains (a stray urn in a posting or a browse folder) are only dropped by a full rebuild.
 */
export async function orphanedUrns(model: Model): Promise<string[]> {
  const { redis, keys } = model
  const candidates = new Set<string>()
  for (const entity of model.registry.entities) {
    for (const shard of keys.allShards()) {
      const prefix = keys.docPrefix(shard, entity.name)
      await scanKeys(redis, `${prefix}*`, async (batch) => { for (const key of batch) candidates.add(key.slice(prefix.length)) })
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
