/**
 * Restating an entity (restore indices), pure: from what the index holds for it now and its stored rows, the ops
 * that make its search document, browse entries, outgoing edges (with their incoming entries) and its entry in the
 * entity list agree with its latest aspects again, plus one RESTATE change-log entry per restored row. Every add is
 * idempotent, so lost entries come back; when the stored document differs from the derived one, what it listed
 * is removed first.
 */
import { canonicalJson } from '../canonicalJson.ts'
import type { Envelope } from '../derive/envelope.ts'
import { edgesOf, type Edge } from '../derive/edges.ts'
import { searchDocument, type SearchDocument } from '../derive/searchDocument.ts'
import { SYSTEM_ACTOR } from '../jobs.ts'
import type { ParsedUrn } from '../urn.ts'
import { SEP } from './keys.ts'
import type { Op } from './ops.ts'
import type { PlanContext } from './plan.ts'
import { browseOps, edgeOps } from './planIndex.ts'

/** What the index holds for an entity now, as read back from Redis (EntityStore.indexed). */
export interface Indexed {
  rev: number
  latest: Map<string, Envelope>
  doc: SearchDocument | null
  outEdges: Edge[]
}

/** The ops restating `parsed`; `aspects` are the rows asked for (undefined: all of its stored aspects). */
export function restateOps(ctx: PlanContext, parsed: ParsedUrn, indexed: Indexed, aspects: readonly string[] | undefined, now: number): { ops: Op[]; restored: number; missing: number } {
  const { registry, keys } = ctx
  const { urn, entity } = parsed
  const shard = keys.shardOf(urn)
  const wanted = aspects ?? [...indexed.latest.keys()]
  const restored = wanted.filter((a) => indexed.latest.has(a))
  const missing = wanted.filter((a) => !indexed.latest.has(a))
  const values = new Map([...indexed.latest].map(([a, env]) => [a, env.value]))
  const doc = searchDocument(registry, entity, urn, values)
  const derived = edgesOf(registry, entity, urn, values)
  const derivedIds = new Set(derived.map((e) => `${e.type}${SEP}${e.target}`))
  const unchanged = indexed.doc !== null && doc !== null && canonicalJson(indexed.doc.fields) === canonicalJson(doc.fields)
  const ops: Op[] = unchanged ? [] : [
    ...ctx.documentOps(entity, urn, indexed.doc, null),
    ...ctx.purgeOps(entity, urn),
    ...browseOps(keys, entity.name, urn, indexed.doc, null),
  ]
  ops.push(
    ...(unchanged ? ctx.restateDocumentOps(entity, urn, doc!) : ctx.documentOps(entity, urn, null, doc)),
    ...browseOps(keys, entity.name, urn, null, doc),
    ...edgeOps(keys, urn, derived, indexed.outEdges.filter((e) => !derivedIds.has(`${e.type}${SEP}${e.target}`))),
  )
  // The entity list names it while it has a latest aspect (an entry lost is restored, one left over dropped).
  ops.push(indexed.latest.size > 0 ? ['ZADD', keys.entities(shard), '0', urn] : ['ZREM', keys.entities(shard), urn])
  for (const aspect of restored) {
    const env = indexed.latest.get(aspect)!
    ops.push(['XADD', keys.changeLog(shard), 'MAXLEN', '~', String(ctx.changeLogMaxLen), '*',
      'entityType', entity.name, 'entityUrn', urn, 'changeType', 'RESTATE', 'aspectName', aspect,
      'aspect', JSON.stringify(env.value), 'systemMetadata', JSON.stringify(env.systemMetadata ?? {}),
      'created', JSON.stringify({ time: now, actor: SYSTEM_ACTOR })])
  }
  return { ops, restored: restored.length, missing: missing.length }
}

/** The ops dropping `source`'s edges to `target` (every relationship in `types`), in `source`'s shard. */
export function dropEdgesOps(ctx: PlanContext, source: string, target: string, types: readonly string[]): Op[] {
  const shard = ctx.keys.shardOf(source)
  return types.flatMap((type) => [['ZREM', ctx.keys.edgesOut(source, type), target], ['ZREM', ctx.keys.edgesIn(shard, target, type), source]])
}
