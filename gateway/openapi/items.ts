/**
 * Upstream's v3 write bodies as write items, pure: `[{"urn": u, "<aspectName>": {"value": {...}, "systemMetadata"?:
 * {...}, "headers"?: {...}}}]` (POST, and PATCH with `"value": {"patch": [...]}`). Each aspect goes through the
 * same proposal check as `ingestProposal` (model/proposal.ts), so there is one model and one set of rules; a
 * problem anywhere is a 400 before anything is queued. The request's trace id goes into each aspect's system
 * metadata (`properties.telemetryTraceId`), where upstream keeps it and where write tracing finds it.
 */
import { fail } from '../../model/errors.ts'
import type { SystemMetadata, WriteItem } from '../../model/jobs.ts'
import { parseProposal } from '../../model/proposal.ts'
import type { Registry } from '../../model/registry.ts'
import { withTraceId } from './trace.ts'

export type V3ChangeType = 'UPSERT' | 'PATCH'

/** One aspect of a v3 body as the response echoes it. */
export interface WrittenAspect {
  urn: string
  aspect: string
  value: unknown
  systemMetadata: SystemMetadata
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The write item of one aspect entry (`{value, systemMetadata?, headers?}`) of `urn`. */
export function v3AspectItem(registry: Registry, entityName: string, urn: string, aspectName: string, entry: unknown, changeType: V3ChangeType, traceId: string, where: string): { item: WriteItem; written: WrittenAspect } {
  if (!isObject(entry) || !('value' in entry)) throw fail('INVALID_REQUEST', `${where} must be {"value": {...}, "systemMetadata"?: {...}, "headers"?: {...}}`, [{ path: `${where}.value`, message: 'required' }])
  if (changeType === 'PATCH' && !(isObject(entry.value) && 'patch' in entry.value) && !Array.isArray(entry.value)) {
    throw fail('INVALID_REQUEST', `${where}.value: missing \`patch\` field`, [{ path: `${where}.value.patch`, message: 'required' }])
  }
  if (entry.systemMetadata !== undefined && !isObject(entry.systemMetadata)) throw fail('INVALID_REQUEST', `${where}.systemMetadata must be an object`, [{ path: `${where}.systemMetadata`, message: 'not an object' }])
  if (entry.headers !== undefined && !isObject(entry.headers)) throw fail('INVALID_REQUEST', `${where}.headers must be an object of strings`, [{ path: `${where}.headers`, message: 'not an object' }])
  const systemMetadata = withTraceId(entry.systemMetadata as SystemMetadata | undefined, traceId)
  const headers = entry.headers ? Object.fromEntries(Object.entries(entry.headers).map(([k, v]) => [k, String(v)])) : undefined
  const item = parseProposal(registry, {
    entityType: entityName, entityUrn: urn, changeType, aspectName,
    aspect: { json: entry.value, contentType: changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json' },
    systemMetadata, ...(headers ? { headers } : {}),
  }, where)
  const value = item.op === 'upsert' ? item.aspects[0]!.value : entry.value
  return { item, written: { urn: item.urn, aspect: item.op === 'upsert' ? item.aspects[0]!.name : aspectName, value, systemMetadata } }
}

/** The items of a v3 entity-list body for `entityName`, in body order (one per aspect). */
export function v3Items(registry: Registry, entityName: string, body: unknown, changeType: V3ChangeType, traceId: string, where = 'body'): { items: WriteItem[]; written: WrittenAspect[] } {
  registry.entity(entityName)
  if (!Array.isArray(body)) throw fail('INVALID_REQUEST', `${where} must be a JSON array of {"urn": ..., "<aspectName>": {"value": ...}}`, [{ path: where, message: 'not an array' }])
  const items: WriteItem[] = []
  const written: WrittenAspect[] = []
  body.forEach((entity: unknown, i) => {
    const at = `${where}[${i}]`
    if (!isObject(entity) || typeof entity.urn !== 'string') throw fail('INVALID_REQUEST', `${at}: missing \`urn\` field`, [{ path: `${at}.urn`, message: 'required' }])
    for (const [aspectName, entry] of Object.entries(entity)) {
      if (aspectName === 'urn') continue
      const one = v3AspectItem(registry, entityName, entity.urn, aspectName, entry, changeType, traceId, `${at}.${aspectName}`)
      items.push(one.item)
      written.push(one.written)
    }
  })
  return { items, written }
}

/** Upstream's response list: one `{urn, <aspect>: {value, systemMetadata?}}` per urn, in first-seen order. */
export function writtenEntities(written: readonly WrittenAspect[], withSystemMetadata: boolean): Record<string, unknown>[] {
  const byUrn = new Map<string, Record<string, unknown>>()
  for (const w of written) {
    let entity = byUrn.get(w.urn)
    if (!entity) byUrn.set(w.urn, (entity = { urn: w.urn }))
    entity[w.aspect] = { value: w.value, ...(withSystemMetadata ? { systemMetadata: w.systemMetadata } : {}) }
  }
  return [...byUrn.values()]
}
