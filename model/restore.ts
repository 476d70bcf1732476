/**
 * Restore indices: rebuilds search documents, browse entries and relationship edges from the stored rows (the
 * latest aspects, ordered by urn then aspect), and removes index entries no stored row supports any more. Each
 * selected entity is restated: what the index holds for it (its stored document and edge sets) is removed and
 * what its rows derive is added, in one compare-and-set script per entity. Every restored row is logged to the
 * change log as a RESTATE.
 */
import type { Envelope } from './derive/envelope.ts'
import { canonicalJson } from './derive/canonical.ts'
import { edgesOf, type Edge } from './derive/edges.ts'
import { searchDocument, type SearchDocument } from './derive/searchDocument.ts'
import type { Model } from './runtime.ts'
import { SEP } from './store/keys.ts'
import type { Op } from './store/ops.ts'
import { browseOps, edgeOps } from './store/planIndex.ts'
import { parseUrn, type ParsedUrn } from './urn.ts'

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
/** Entities read and restated per round trip. */
const RESTORE_CHUNK = 200

/** Selects the batch of rows: `[urn, aspect]` pairs after skipping `start` matching rows. */
async function selectRows(model: Model, args: RestoreArgs): Promise<{ rows: [string, string][]; scanned: number; more: boolean }> {
  const prefix = args.urn !== undefined ? `${args.urn}${SEP}` : args.urnLike !== undefined ? likePrefix(args.urnLike) : ''
  const min = prefix ? `[${prefix}` : '-'
  const max = prefix ? `[${prefix}\xff` : '+'
  // A pattern that is a literal prefix and a final % is a plain range of rows: no per-row test, direct offsets.
  const prefixOnly = args.urnLike !== undefined && args.urnLike === `${likePrefix(args.urnLike).replace(/[%_\\]/g, '\\$&')}%`
  const like = args.urnLike !== undefined && !prefixOnly ? likeToRegExp(args.urnLike) : undefined
  const matches = (urn: string, aspect: string): boolean =>
    (args.urn === undefined || urn === args.urn) && (args.aspect === undefined || aspect === args.aspect) && (!like || like.test(urn))
  const exactRange = !like && args.aspect === undefined
  const rows: [string, string][] = []
  let scanned = 0
  let skipped = 0
  let offset = exactRange ? args.start : 0
  for (;;) {
    const chunk = await model.redis.zrangebylex(model.keys.rows(), min, max, 'LIMIT', offset, exactRange ? args.batchSize + 1 : SCAN_CHUNK)
    offset += chunk.length
    for (const member of chunk) {
      scanned++
      const cut = member.indexOf(SEP)
      const urn = member.slice(0, cut)
      const aspect = member.slice(cut + 1)
      if (!matches(urn, aspect)) continue
      if (!exactRange && skipped < args.start) { skipped++; continue }
      if (rows.length === args.batchSize) return { rows, scanned, more: true }
      rows.push([urn, aspect])
    }
    if (exactRange || chunk.length < SCAN_CHUNK) return { rows, scanned, more: exactRange && chunk.length > args.batchSize }
  }
}

/** What the index holds for an entity now, read back from Redis. */
interface Indexed {
  rev: number
  latest: Map<string, Envelope>
  doc: SearchDocument | null
  outEdges: Edge[]
  /** Incoming edges whose source does not point here any more. */
  staleIncoming: Edge[]
}

/** What the index holds for each of `parsed`, read in two round trips whatever their number. */
async function readIndexed(model: Model, parsed: readonly ParsedUrn[]): Promise<Indexed[]> {
  const { redis, keys, registry } = model
  const pipeline = redis.pipeline()
  const bases: number[] = []
  let at = 0
  for (const { urn, entity } of parsed) {
    const { outgoing, incoming } = registry.relationshipTypes(entity)
    bases.push(at)
    at += 3 + outgoing.length + incoming.length
    pipeline.hgetall(keys.latest(urn))
    pipeline.hget(keys.meta(urn), 'rev')
    pipeline.hget(keys.doc(entity.name, urn), 'd')
    for (const rel of outgoing) pipeline.zrange(keys.edgesOut(urn, rel), 0, -1)
    for (const rel of incoming) pipeline.zrange(keys.edgesIn(urn, rel), 0, -1)
  }
  const replies = ((await pipeline.exec()) ?? []).map(([err, v]) => { if (err) throw err; return v })
  const incoming = parsed.map(({ entity }, n) => {
    const types = registry.relationshipTypes(entity)
    const first = bases[n]! + 3 + types.outgoing.length
    return types.incoming.flatMap((type, i) => (replies[first + i] as string[]).map((source) => ({ type, source })))
  })
  // An incoming edge is stale when its source no longer points here.
  const check = redis.pipeline()
  parsed.forEach(({ urn }, n) => { for (const e of incoming[n]!) check.zscore(keys.edgesOut(e.source, e.type), urn) })
  const scores = check.length > 0 ? ((await check.exec()) ?? []).map(([, v]) => v) : []
  let k = 0
  return parsed.map(({ urn, entity }, n) => {
    const base = bases[n]!
    const { outgoing } = registry.relationshipTypes(entity)
    const docFields = replies[base + 2] as string | null
    const staleIncoming = incoming[n]!.filter(() => scores[k++] === null).map((e) => ({ type: e.type, target: e.source }))
    return {
      rev: Number(replies[base + 1] ?? 0),
      latest: new Map(Object.entries(replies[base] as Record<string, string>).map(([a, json]) => [a, JSON.parse(json) as Envelope])),
      doc: docFields ? { urn, entityType: entity.name, fields: JSON.parse(docFields) as Record<string, string[]> } : null,
      outEdges: outgoing.flatMap((type, i) => (replies[base + 3 + i] as string[]).map((target) => ({ type, target }))),
      staleIncoming,
    }
  })
}

/**
 * The ops restating one entity: what its rows derive is added (every add is idempotent, so lost entries come
 * back); when the stored document differs from the derived one, what it listed is removed first.
 */
function restateOps(model: Model, parsed: ParsedUrn, indexed: Indexed, restoredAspects: string[], missingRows: string[]): Op[] {
  const { registry, keys, engine } = model
  const { urn, entity } = parsed
  const values = new Map([...indexed.latest].map(([a, env]) => [a, env.value]))
  const doc = searchDocument(registry, entity, urn, values)
  const derived = edgesOf(registry, entity, urn, values)
  const derivedIds = new Set(derived.map((e) => `${e.type}${SEP}${e.target}`))
  const unchanged = indexed.doc !== null && doc !== null && canonicalJson(indexed.doc.fields) === canonicalJson(doc.fields)
  const ops: Op[] = unchanged ? [] : [
    ...engine.documentOps(entity, urn, indexed.doc, null),
    ...engine.purgeOps(entity, urn),
    ...browseOps(keys, entity.name, urn, indexed.doc, null),
  ]
  ops.push(
    ...engine.documentOps(entity, urn, null, doc),
    ...browseOps(keys, entity.name, urn, null, doc),
    ...edgeOps(keys, urn, derived, indexed.outEdges.filter((e) => !derivedIds.has(`${e.type}${SEP}${e.target}`))),
  )
  for (const e of indexed.staleIncoming) ops.push(['ZREM', keys.edgesIn(urn, e.type), e.target])
  for (const aspect of missingRows) ops.push(['ZREM', keys.rows(), `${urn}${SEP}${aspect}`])
  for (const aspect of restoredAspects) {
    const env = indexed.latest.get(aspect)!
    ops.push(['XADD', keys.changeLog(), 'MAXLEN', '~', String(model.config.changeLogMaxLen), '*',
      'entityType', entity.name, 'entityUrn', urn, 'changeType', 'RESTATE', 'aspectName', aspect,
      'aspect', JSON.stringify(env.value), 'systemMetadata', JSON.stringify(env.systemMetadata ?? {}),
      'created', JSON.stringify({ time: Date.now(), actor: 'urn:svc:corpuser:__svc_system' })])
  }
  return ops
}

/** Restates one entity (retrying when a write slips in between read and apply); returns rows restored. */
export async function restoreEntity(model: Model, urn: string, aspects: readonly string[] | undefined): Promise<{ restored: number; ignored: number }> {
  let parsed: ParsedUrn
  try {
    parsed = parseUrn(model.registry, urn)
  } catch {
    if (aspects) await model.redis.zrem(model.keys.rows(), ...aspects.map((a) => `${urn}${SEP}${a}`))
    return { restored: 0, ignored: aspects?.length ?? 0 }
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const [indexed] = await readIndexed(model, [parsed]) as [Indexed]
    const wanted = aspects ?? [...indexed.latest.keys()]
    const restored = wanted.filter((a) => indexed.latest.has(a))
    const missing = wanted.filter((a) => !indexed.latest.has(a))
    const outcome = await model.store.apply(urn, indexed.rev, '', restateOps(model, parsed, indexed, restored, missing))
    if (outcome !== 'conflict') return { restored: restored.length, ignored: missing.length }
  }
  throw new Error(`restore: ${urn} kept changing; try again`)
}

/** Restores one batch of rows (route 11 and the ops command). */
export async function restoreIndices(model: Model, args: RestoreArgs): Promise<RestoreResult> {
  const { rows, scanned, more } = await selectRows(model, args)
  const byUrn = new Map<string, string[]>()
  for (const [urn, aspect] of rows) byUrn.set(urn, [...(byUrn.get(urn) ?? []), aspect])
  let rowsRestored = 0
  let ignored = 0
  const parsed: { parsed: ParsedUrn; aspects: string[] }[] = []
  for (const [urn, aspects] of byUrn) {
    try {
      parsed.push({ parsed: parseUrn(model.registry, urn), aspects })
    } catch {
      const r = await restoreEntity(model, urn, aspects)
      ignored += r.ignored
    }
  }
  // Read every entity of the batch at once, apply every restatement in one pipeline; an entity written meanwhile
  // (a compare-and-set conflict) is restated again on its own.
  for (let i = 0; i < parsed.length; i += RESTORE_CHUNK) {
    const chunk = parsed.slice(i, i + RESTORE_CHUNK)
    const indexed = await readIndexed(model, chunk.map((c) => c.parsed))
    const plans = chunk.map((c, n) => {
      const ix = indexed[n]!
      const restored = c.aspects.filter((a) => ix.latest.has(a))
      const missing = c.aspects.filter((a) => !ix.latest.has(a))
      return { urn: c.parsed.urn, rev: ix.rev, ops: restateOps(model, c.parsed, ix, restored, missing), restored: restored.length, missing: missing.length }
    })
    const outcomes = await model.store.applyMany(plans)
    for (const [n, outcome] of outcomes.entries()) {
      if (outcome === 'conflict') {
        const r = await restoreEntity(model, plans[n]!.urn, chunk[n]!.aspects)
        rowsRestored += r.restored
        ignored += r.ignored
      } else {
        rowsRestored += plans[n]!.restored
        ignored += plans[n]!.missing
      }
    }
  }
  return {
    rowsScanned: scanned,
    rowsRestored,
    entitiesRestored: byUrn.size,
    ignored,
    // Unresolvable rows were dropped from the row list, so the rows after them moved up by as many.
    nextStart: more ? args.start + rows.length - ignored : null,
  }
}

/**
 * Urns the search indexes list (stored documents, native live sets) that have no stored rows. Entries that no
 * document explains (a stray urn in a posting or a browse folder) are only dropped by a full rebuild.
 */
export async function orphanedUrns(model: Model): Promise<string[]> {
  const { redis, keys } = model
  const candidates = new Set<string>()
  for (const entity of model.registry.entities) {
    const prefix = keys.docPrefix(entity.name)
    for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
      for (const key of batch) candidates.add(key.slice(prefix.length))
    }
    for (const urn of await redis.zrange(keys.nativeIndex(entity.name, 'live'), 0, -1)) candidates.add(urn)
  }
  const urns = [...candidates]
  const pipeline = redis.pipeline()
  for (const urn of urns) pipeline.exists(keys.latest(urn))
  const exists = ((await pipeline.exec()) ?? []).map(([, v]) => v)
  return urns.filter((_, i) => exists[i] === 0)
}

/** Removes the index entries of urns that have no rows any more; returns how many. */
export async function sweepOrphans(model: Model): Promise<number> {
  const orphans = await orphanedUrns(model)
  for (const urn of orphans) await restoreEntity(model, urn, [])
  return orphans.length
}

/** Key patterns of every index (search engine, browse, edges): a full rebuild deletes them first. */
export function indexKeyPatterns(model: Model): string[] {
  const p = model.keys.prefix
  return [...model.engine.indexKeyPatterns(), `${p}br:*`, `${p}{*}:out:*`, `${p}{*}:in:*`]
}
