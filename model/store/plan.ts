/**
 * Turns an entity's computed change (model/derive/change.ts) into the Redis ops that apply it: storage (latest,
 * history, versions, rows, timeseries), the change log, runs, and every index entry (search document, browse,
 * edges), so that one atomic script leaves storage and indexes in step. Pure.
 */
import type { EntityChange, StorageStep } from '../derive/change.ts'
import { diffEdges, edgesOf } from '../derive/edges.ts'
import type { Envelope } from '../derive/envelope.ts'
import { searchDocument, type SearchDocument } from '../derive/searchDocument.ts'
import type { EntitySpec } from '../entities.ts'
import type { Registry } from '../registry.ts'
import { SEP, type Keys } from './keys.ts'
import type { Op } from './ops.ts'
import { browseOps, edgeOps } from './planIndex.ts'

/** What planning needs besides the change. */
export interface PlanContext {
  registry: Registry
  keys: Keys
  /** The search engine's ops for a document change (stored document + its index). */
  documentOps: (entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null) => Op[]
  /** The search engine's ops re-adding an unchanged stored document, safe to repeat (SearchEngine.restateDocumentOps). */
  restateDocumentOps: (entity: EntitySpec, urn: string, doc: SearchDocument) => Op[]
  /** The search engine's ops removing an entity from its top-level structures even when its document is unknown. */
  purgeOps: (entity: EntitySpec, urn: string) => Op[]
  changeLogMaxLen: number
}

/** Aspect values of an envelope map. */
export function valuesOf(latest: ReadonlyMap<string, Envelope>): Map<string, unknown> {
  return new Map([...latest].map(([name, env]) => [name, env.value]))
}

function stepOps(keys: Keys, urn: string, step: StorageStep): Op[] {
  switch (step.kind) {
    case 'archive': return [['HSET', keys.history(urn, step.aspect), String(step.version), JSON.stringify(step.envelope)]]
    case 'unarchive': return [['HDEL', keys.history(urn, step.aspect), String(step.version)]]
    case 'dropHistory': return [['DEL', keys.history(urn, step.aspect)]]
    case 'dropTimeseries': return [['DEL', keys.timeseries(urn, step.aspect)]]
    case 'timeseries': {
      const key = keys.timeseries(urn, step.aspect)
      const t = String(step.timestampMillis)
      return [['ZREMRANGEBYSCORE', key, t, t], ['ZADD', key, t, JSON.stringify(step.value)]]
    }
  }
}

/** Storage, change log and run ops of a change. */
function storageOps(ctx: PlanContext, change: EntityChange): Op[] {
  const { keys } = ctx
  const urn = change.parsed.urn
  const shard = keys.shardOf(urn)
  const ops: Op[] = change.steps.flatMap((step) => stepOps(keys, urn, step))
  const before = change.before.latest
  for (const [aspect, env] of change.latest) {
    if (before.get(aspect) !== env) ops.push(['HSET', keys.latest(urn), aspect, JSON.stringify(env)])
  }
  for (const aspect of before.keys()) {
    if (!change.latest.has(aspect)) ops.push(['HDEL', keys.latest(urn), aspect])
  }
  // The entity list (restore's rows) names the entities that have a latest aspect.
  if (before.size === 0 && change.latest.size > 0) ops.push(['ZADD', keys.entities(shard), '0', urn])
  else if (before.size > 0 && change.latest.size === 0) ops.push(['ZREM', keys.entities(shard), urn])
  for (const [aspect, version] of change.versions) {
    if (change.before.versions.get(aspect) !== version) ops.push(['HSET', keys.meta(urn), `v:${aspect}`, String(version)])
  }
  for (const aspect of change.before.versions.keys()) {
    if (!change.versions.has(aspect)) ops.push(['HDEL', keys.meta(urn), `v:${aspect}`])
  }
  for (const entry of change.changeLog) {
    const fields = [
      'entityType', entry.entityType, 'entityUrn', entry.entityUrn, 'changeType', entry.changeType,
      'aspectName', entry.aspectName,
      ...(entry.aspect !== undefined ? ['aspect', JSON.stringify(entry.aspect)] : []),
      ...(entry.previousAspectValue !== undefined ? ['previousAspectValue', JSON.stringify(entry.previousAspectValue)] : []),
      'systemMetadata', JSON.stringify(entry.systemMetadata), 'created', JSON.stringify(entry.created),
    ]
    ops.push(['XADD', keys.changeLog(shard), 'MAXLEN', '~', String(ctx.changeLogMaxLen), '*', ...fields])
  }
  for (const [runId, aspects] of change.runs) {
    ops.push(['SADD', keys.run(shard, runId), ...[...aspects].map((a) => `${urn}${SEP}${a}`)])
  }
  return ops
}

/** Index ops moving an entity's search document, browse entries and edges from `before` to `after` aspect values. */
export function indexOps(
  ctx: PlanContext, entity: EntitySpec, urn: string,
  before: ReadonlyMap<string, unknown>, after: ReadonlyMap<string, unknown>,
): Op[] {
  const docBefore = searchDocument(ctx.registry, entity, urn, before)
  const docAfter = searchDocument(ctx.registry, entity, urn, after)
  const { added, removed } = diffEdges(edgesOf(ctx.registry, entity, urn, before), edgesOf(ctx.registry, entity, urn, after))
  return [
    ...ctx.documentOps(entity, urn, docBefore, docAfter),
    ...browseOps(ctx.keys, entity.name, urn, docBefore, docAfter),
    ...edgeOps(ctx.keys, urn, added, removed),
  ]
}

/**
 * All ops of a change, on the entity's own shard. A hard delete removes the entity's outgoing edges here; the
 * edges other entities hold to it are dropped by follow-up writes to those entities (model/services/references.ts).
 */
export function planChange(ctx: PlanContext, change: EntityChange): Op[] {
  const { entity, urn } = change.parsed
  const ops = storageOps(ctx, change)
  ops.push(...indexOps(ctx, entity, urn, valuesOf(change.before.latest), valuesOf(change.latest)))
  return ops
}
