/**
 * Restore indices: rebuilds search documents, browse entries and relationship edges from the stored rows (the
 * latest aspects, ordered by urn then aspect), and removes index entries no stored row supports any more. Each
 * selected entity is restated: what the index holds for it (its stored document and edge sets) is removed and
 * what its rows derive is added, in one compare-and-set script per entity. Every restored row is logged to the
 * change log as a RESTATE.
 */
import type { Envelope } from './derive/envelope.ts'
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

/** Selects the batch of rows: `[urn, aspect]` pairs after skipping `start` matching rows. */
async function selectRows(model: Model, args: RestoreArgs): Promise<{ rows: [string, string][]; scanned: number; more: boolean }> {
  const prefix = args.urn !== undefined ? `${args.urn}${SEP}` : args.urnLike !== undefined ? likePrefix(args.urnLike) : ''
  const min = prefix ? `[${prefix}` : '-'
  const max = prefix ? `[${prefix}\xff` : '+'
  const like = args.urnLike !== undefined ? likeToRegExp(args.urnLike) : undefined
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

async function readIndexed(model: Model, parsed: ParsedUrn): Promise<Indexed> {
  const { redis, keys, registry } = model
  const { urn, entity } = parsed
  const rels = registry.relationshipNames
  const pipeline = redis.pipeline()
  pipeline.hgetall(keys.latest(urn))
  pipeline.hget(keys.meta(urn), 'rev')
  pipeline.hget(keys.doc(entity.name, urn), 'd')
  for (const rel of rels) pipeline.zrange(keys.edgesOut(urn, rel), 0, -1)
  for (const rel of rels) pipeline.zrange(keys.edgesIn(urn, rel), 0, -1)
  const replies = ((await pipeline.exec()) ?? []).map(([err, v]) => { if (err) throw err; return v })
  const latest = new Map(Object.entries(replies[0] as Record<string, string>).map(([a, json]) => [a, JSON.parse(json) as Envelope]))
  const docFields = replies[2] as string | null
  const outEdges = rels.flatMap((type, i) => (replies[3 + i] as string[]).map((target) => ({ type, target })))
  const incoming = rels.flatMap((type, i) => (replies[3 + rels.length + i] as string[]).map((source) => ({ type, source })))
  let staleIncoming: Edge[] = []
  if (incoming.length > 0) {
    const check = redis.pipeline()
    for (const e of incoming) check.zscore(keys.edgesOut(e.source, e.type), urn)
    const scores = ((await check.exec()) ?? []).map(([, v]) => v)
    staleIncoming = incoming.filter((_, i) => scores[i] === null).map((e) => ({ type: e.type, target: e.source }))
  }
  return {
    rev: Number(replies[1] ?? 0),
    latest,
    doc: docFields ? { urn, entityType: entity.name, fields: JSON.parse(docFields) as Record<string, string[]> } : null,
    outEdges,
    staleIncoming,
  }
}

/** The ops restating one entity: remove what is indexed, add what its rows derive. */
function restateOps(model: Model, parsed: ParsedUrn, indexed: Indexed, restoredAspects: string[], missingRows: string[]): Op[] {
  const { registry, keys, engine } = model
  const { urn, entity } = parsed
  const values = new Map([...indexed.latest].map(([a, env]) => [a, env.value]))
  const doc = searchDocument(registry, entity, urn, values)
  const derived = edgesOf(registry, entity, urn, values)
  const derivedIds = new Set(derived.map((e) => `${e.type}${SEP}${e.target}`))
  const ops: Op[] = [
    ...engine.documentOps(entity, urn, indexed.doc, null),
    ...engine.purgeOps(entity, urn),
    ...engine.documentOps(entity, urn, null, doc),
    ...browseOps(keys, entity.name, urn, indexed.doc, null),
    ...browseOps(keys, entity.name, urn, null, doc),
    ...edgeOps(keys, urn, derived, indexed.outEdges.filter((e) => !derivedIds.has(`${e.type}${SEP}${e.target}`))),
  ]
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
    const indexed = await readIndexed(model, parsed)
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
  const CONCURRENCY = 32
  const entries = [...byUrn]
  for (let i = 0; i < entries.length; i += CONCURRENCY) {
    const results = await Promise.all(entries.slice(i, i + CONCURRENCY).map(([urn, aspects]) => restoreEntity(model, urn, aspects)))
    for (const r of results) { rowsRestored += r.restored; ignored += r.ignored }
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
