/**
 * Upstream's OpenAPI v3 entity routes (datahub-project/datahub, metadata-service/openapi-servlet: v3
 * EntityController and the GenericEntitiesController it extends, release line 1.x), in this deployment's
 * namespace: create, read, exists, patch and delete entities and aspects, batch reads, and the cross-type
 * `generic` forms. Writes go through the one write path (gateway/http/writes.ts), checked as proposals are
 * (gateway/openapi/items.ts). The scroll routes are in openapiScroll.ts.
 */
import { Type } from 'typebox'
import { fail } from '../../model/errors.ts'
import type { WriteItem } from '../../model/jobs.ts'
import { parseUrn, type ParsedUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { ListParam } from '../http/params.ts'
import type { Reply, RouteRequest, RouteSpec } from '../http/route.ts'
import { v3AspectItem, v3Items, writtenEntities, type V3ChangeType } from '../openapi/items.ts'
import { aspectNamed, aspectPath, batchGetPath, entityNameOnly, entityPath } from '../openapi/paths.ts'
import { existsV3, readEntityV3, resolveAspects, type AspectVersions } from '../openapi/read.ts'
import { writeV3 } from '../openapi/submit.ts'
import { traceIdOf, traceparentOf } from '../openapi/trace.ts'
import { aspectV3 } from '../views/entityV3.ts'
import { AspectBody, BATCH_GET_ERROR, BatchGetBody, ENTITY_LIST_ERROR, EntityListBody, GENERIC_ERROR, GenericBody } from '../openapi/schemas.ts'

const BASE = '/openapi/v3/entity'
const MAX_BATCH = 1000
const NOT_FOUND = { status: 404, body: null, raw: '', headers: { 'not-found-reason': 'ENTITY' } } as const

// Path parameters (documentation: the routes' `match` takes them from the path) and query parameters (params.ts).
const ENTITY_NAME = Type.String({ description: 'entity type, e.g. dataset' })
const URN = Type.String({ description: 'the urn (url-encoded)' })
const ASPECT_NAME = Type.String({ description: 'aspect name, e.g. status' })
export const EntityNamePath = Type.Object({ entityName: ENTITY_NAME })
export const EntityPath = Type.Object({ entityName: ENTITY_NAME, urn: URN })
export const AspectPath = Type.Object({ entityName: ENTITY_NAME, urn: URN, aspectName: ASPECT_NAME })
const flag = (fallback: boolean, description: string) => Type.Optional(Type.Boolean({ default: fallback, description: `${description} (true or false, any case; default ${fallback})` }))
const SYSTEM_METADATA = flag(false, 'true: include each aspect\'s systemMetadata and auditStamp')
const ASYNC_TRUE = flag(true, 'true: answer 202 once queued; false: 200 once applied, with the written entities')
const ASYNC_FALSE = flag(false, 'false: answer 200 once applied; true: 202 once queued')
const INCLUDE_SOFT_DELETE = flag(false, 'true: a soft-deleted entity counts')
export const SystemMetadataQuery = Type.Object({ systemMetadata: SYSTEM_METADATA })
export const WriteQuery = Type.Object({ async: ASYNC_TRUE, systemMetadata: SYSTEM_METADATA })
export const AspectWriteQuery = Type.Object({ async: ASYNC_FALSE, systemMetadata: SYSTEM_METADATA })
export const AspectUpsertQuery = Type.Object({
  async: ASYNC_FALSE, systemMetadata: SYSTEM_METADATA,
  createIfNotExists: flag(false, 'true: only if the aspect does not exist'),
  createIfEntityNotExists: flag(false, 'true: only if the entity does not exist'),
})
export const AspectReadQuery = Type.Object({
  version: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'version (0 = latest)' })),
  systemMetadata: SYSTEM_METADATA,
})
export const EntityReadQuery = Type.Object({
  aspects: Type.Optional(ListParam('aspect names')),
  aspectNames: Type.Optional(ListParam('same as aspects')),
  systemMetadata: SYSTEM_METADATA,
})
export const ExistsQuery = Type.Object({ includeSoftDelete: INCLUDE_SOFT_DELETE })
export const EntityDeleteQuery = Type.Object({
  aspects: Type.Optional(ListParam('delete only these aspects')),
  clear: flag(false, 'true: delete every aspect but the key aspect'),
})
type Flags = Record<string, boolean | undefined>
/** The flags a route's `query` schema declared, as params.ts read them (defaults applied). */
const flagsOf = (req: RouteRequest): Flags => req.query as Flags

/** The urn of a path, checked to be of the path's entity type. */
export function urnOfPath(deps: GatewayDeps, params: Record<string, string>): ParsedUrn {
  const entity = deps.model.registry.entity(params.entityName ?? '')
  const parsed = parseUrn(deps.model.registry, params.urn, 'urn')
  if (parsed.entity !== entity) throw fail('ENTITY_TYPE_MISMATCH', `the urn is a ${parsed.entity.name}, not a ${entity.name}`, [{ path: 'urn', message: `must be a ${entity.name} urn` }])
  return parsed
}

/** Aspect names of `aspects` and `aspectNames` (repeated or comma-separated). */
export const requestedAspects = (query: Record<string, unknown>): string[] => [...(query.aspects as string[] | undefined ?? []), ...(query.aspectNames as string[] | undefined ?? [])]

/** The answer of a write: the written entities, 200 once applied or 202 once queued, with the trace's traceparent. */
function written(status: number, body: unknown, traceId: string): Reply {
  return { status, body, headers: { traceparent: traceparentOf(traceId) } }
}

/** POST or PATCH of an entity list of one type. */
async function writeEntities(deps: GatewayDeps, req: RouteRequest, entityName: string, body: unknown, changeType: V3ChangeType, where = 'body') {
  const { async: asynchronous = true, systemMetadata = false } = flagsOf(req)
  const traceId = traceIdOf(req.headers)
  const { items, written: echo } = v3Items(deps.model.registry, entityName, body, changeType, traceId, where)
  return { items, echo, asynchronous, traceId, withSystemMetadata: systemMetadata }
}

/** The entity list of a batchGet body: urns with the aspect versions they ask (`headers.If-Version-Match`, else latest). */
function batchRequest(deps: GatewayDeps, entityName: string | undefined, body: unknown, where: string): { parsed: ParsedUrn; aspects: AspectVersions; all: boolean }[] {
  if (!Array.isArray(body)) throw fail('INVALID_REQUEST', `${where} must be a JSON array of {"urn": ..., "<aspectName>"?: {...}}`, [{ path: where, message: 'not an array' }])
  if (body.length > MAX_BATCH) throw fail('INVALID_REQUEST', `at most ${MAX_BATCH} entities per batchGet`, [{ path: where, message: `${body.length} given` }])
  const entity = entityName === undefined ? undefined : deps.model.registry.entity(entityName)
  return body.map((raw: unknown, i) => {
    const at = `${where}[${i}]`
    const item = raw as Record<string, unknown> | null
    if (typeof item !== 'object' || item === null || typeof item.urn !== 'string') throw fail('INVALID_REQUEST', `${at}: missing \`urn\` field`, [{ path: `${at}.urn`, message: 'required' }])
    const parsed = parseUrn(deps.model.registry, item.urn, `${at}.urn`)
    if (entity && parsed.entity !== entity) throw fail('ENTITY_TYPE_MISMATCH', `${at}.urn is a ${parsed.entity.name}, not a ${entity.name}`, [{ path: `${at}.urn`, message: `must be a ${entity.name} urn` }])
    const aspects: AspectVersions = new Map()
    for (const [key, value] of Object.entries(item)) {
      if (key === 'urn') continue
      const name = aspectNamed(deps.model.registry, parsed.entity.name, key)
      if (!name) continue
      const headers = (value as { headers?: Record<string, unknown> } | null)?.headers
      const pinned = headers ? Object.entries(headers).find(([h]) => h.toLowerCase() === 'if-version-match')?.[1] : undefined
      if (pinned !== undefined && !/^\d+$/.test(String(pinned))) throw fail('INVALID_REQUEST', `${at}.${key}.headers.If-Version-Match must be a version number`, [{ path: `${at}.${key}.headers`, message: `got ${JSON.stringify(pinned)}` }])
      aspects.set(name, pinned === undefined ? 0 : Number(pinned))
    }
    return aspects.size > 0 ? { parsed, aspects, all: false } : { parsed, aspects: resolveAspects(deps.model, parsed, undefined), all: true }
  })
}

async function batchGet(deps: GatewayDeps, entityName: string | undefined, body: unknown, withSystemMetadata: boolean, where = 'body') {
  const requests = batchRequest(deps, entityName, body, where)
  const read = await Promise.all(requests.map((r) => readEntityV3(deps.model, r.parsed, r.aspects, withSystemMetadata, r.all)))
  return read.filter((e): e is Record<string, unknown> => e !== null)
}

/** The entity-type arrays of a `generic` body: `{"<entityName>": [...], ...}`. */
function genericParts(body: unknown): [string, unknown][] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fail('INVALID_REQUEST', 'the body must be {"<entityName>": [...], ...}', [{ path: 'body', message: 'not an object' }])
  const parts = Object.entries(body)
  for (const [name, list] of parts) if (!Array.isArray(list)) throw fail('INVALID_REQUEST', `Value of property '${name}' must be an array`, [{ path: name, message: 'not an array' }])
  return parts
}

export function openapiEntityRoutes(deps: GatewayDeps): RouteSpec[] {
  const { model } = deps
  const { registry, store } = model
  const aspectOf = aspectPath(registry)
  const entityOf = entityPath(registry)

  /** Create (POST) or patch (PATCH) the entities of several types: `{"<entityName>": [...]}`. */
  const generic = (changeType: V3ChangeType) => async function writeGeneric(req: RouteRequest): Promise<Reply> {
    const traceId = traceIdOf(req.headers)
    const parts = genericParts(req.body).map(([name, list]) => ({ name, ...v3Items(registry, name, list, changeType, traceId, name) }))
    const { async: asynchronous = true, systemMetadata: withSystemMetadata = false } = flagsOf(req)
    await writeV3(deps, parts.flatMap((p) => p.items), req, asynchronous, traceId)
    // As upstream: an async patch answers each type with an empty list.
    const body = Object.fromEntries(parts.map((p) => [p.name, changeType === 'PATCH' && asynchronous ? [] : writtenEntities(p.written, withSystemMetadata)]))
    return written(asynchronous ? 202 : 200, body, traceId)
  }

  /** One aspect: POST (upsert) or PATCH. */
  const writeAspect = (changeType: V3ChangeType) => async function writeOneAspect(req: RouteRequest): Promise<Reply> {
    const parsed = urnOfPath(deps, req.params)
    const aspectName = req.params.aspectName!
    const flags = flagsOf(req)
    const { async: asynchronous = false, systemMetadata: withSystemMetadata = false } = flags
    const traceId = traceIdOf(req.headers)
    let entry = req.body
    if (changeType === 'PATCH') {
      // Upstream's body here is the patch itself ({"patch": [...], "arrayPrimaryKeys"?}); the entity-list form's {"value": ...} is taken too.
      entry = typeof entry === 'object' && entry !== null && !Array.isArray(entry) && 'value' in entry ? entry : { value: entry }
    }
    const { item, written: echo } = v3AspectItem(registry, parsed.entity.name, parsed.urn, aspectName, entry, changeType, traceId, 'body')
    const items: WriteItem[] = [item]
    if (changeType === 'UPSERT') {
      // createIfNotExists=true: only while the aspect does not exist; createIfEntityNotExists=true: only while the entity does not.
      if (flags.createIfEntityNotExists) (item as { condition?: unknown }).condition = { aspect: parsed.entity.keyAspect, ifNoneMatch: true }
      else if (flags.createIfNotExists) (item as { condition?: unknown }).condition = { aspect: echo.aspect, ifNoneMatch: true }
    }
    await writeV3(deps, items, req, asynchronous, traceId)
    if (asynchronous) return written(202, { urn: parsed.urn, [echo.aspect]: { value: echo.value, ...(withSystemMetadata ? { systemMetadata: echo.systemMetadata } : {}) } }, traceId)
    const env = (await store.latest(parsed.urn, [echo.aspect])).get(echo.aspect)
    const value = env ? aspectV3(env, withSystemMetadata) : { value: echo.value }
    return written(200, { urn: parsed.urn, [echo.aspect]: value }, traceId)
  }

  return [
    {
      method: 'POST', path: `${BASE}/generic`, body: true, requestSchema: GenericBody, requestError: GENERIC_ERROR, scope: 'write',
      summary: 'Create or replace aspects of entities of several types: {"<entityName>": [{"urn", "<aspect>": {"value"}}]} (upstream v3 createGenericEntities)',
      query: WriteQuery,
      handler: generic('UPSERT'),
    },
    {
      method: 'PATCH', path: `${BASE}/generic`, body: true, requestSchema: GenericBody, requestError: GENERIC_ERROR, scope: 'write',
      summary: 'Patch aspects of entities of several types: {"<entityName>": [{"urn", "<aspect>": {"value": {"patch": [...]}}}]}',
      query: WriteQuery,
      handler: generic('PATCH'),
    },
    {
      method: 'POST', path: `${BASE}/generic/batchGet`, body: true, requestSchema: GenericBody, requestError: GENERIC_ERROR, scope: 'read',
      summary: 'Read entities of several types: {"<entityName>": [{"urn", "<aspect>"?: {"headers"?: {"If-Version-Match"}}}]}',
      query: SystemMetadataQuery,
      handler: async function batchGetGeneric(req) {
        const withSystemMetadata = flagsOf(req).systemMetadata ?? false
        const parts = genericParts(req.body)
        const answered = await Promise.all(parts.map(async ([name, list]) => [name, await batchGet(deps, name, list, withSystemMetadata, name)] as const))
        return { body: Object.fromEntries(answered) }
      },
    },
    {
      method: 'POST', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/batchGet`, match: batchGetPath, body: true, requestSchema: BatchGetBody, requestError: BATCH_GET_ERROR, scope: 'read',
      summary: 'Read a batch of entities: [{"urn", "<aspect>"?: {"headers"?: {"If-Version-Match": "<version>"}}}] (no aspect named: all)',
      pathParam: EntityNamePath, query: SystemMetadataQuery,
      handler: async function batchGetEntities(req) { return { body: await batchGet(deps, req.params.entityName, req.body, flagsOf(req).systemMetadata ?? false) } },
    },
    {
      method: 'POST', path: `${BASE}/*`, docPath: `${BASE}/{entityName}`, match: entityNameOnly, body: true, requestSchema: EntityListBody, requestError: ENTITY_LIST_ERROR, scope: 'write',
      summary: 'Create or replace aspects of a batch of entities: [{"urn", "<aspect>": {"value", "systemMetadata"?, "headers"?}}]',
      pathParam: EntityNamePath, query: WriteQuery,
      example: { request: [{ urn: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,orders,PROD)', status: { value: { removed: false } } }] },
      handler: async function createEntities(req) {
        const w = await writeEntities(deps, req, req.params.entityName!, req.body, 'UPSERT')
        await writeV3(deps, w.items, req, w.asynchronous, w.traceId)
        return written(w.asynchronous ? 202 : 200, writtenEntities(w.echo, w.withSystemMetadata), w.traceId)
      },
    },
    {
      method: 'PATCH', path: `${BASE}/*`, docPath: `${BASE}/{entityName}`, match: entityNameOnly, body: true, requestSchema: EntityListBody, requestError: ENTITY_LIST_ERROR, scope: 'write',
      summary: 'Patch a batch of entities: [{"urn", "<aspect>": {"value": {"patch": [...], "arrayPrimaryKeys"?}}}] (application/json-patch+json or JSON)',
      pathParam: EntityNamePath, query: WriteQuery,
      handler: async function patchEntities(req) {
        const w = await writeEntities(deps, req, req.params.entityName!, req.body, 'PATCH')
        await writeV3(deps, w.items, req, w.asynchronous, w.traceId)
        // Upstream answers an async patch with an empty 202, a synchronous one with the patches it applied.
        return w.asynchronous ? { status: 202, body: null, raw: '', headers: { traceparent: traceparentOf(w.traceId) } } : written(200, writtenEntities(w.echo, w.withSystemMetadata), w.traceId)
      },
    },
    {
      method: 'GET', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, scope: 'read',
      summary: 'One aspect of an entity: {"value", "systemMetadata"?, "auditStamp"?}; version 0 (default) is the latest',
      pathParam: AspectPath, query: AspectReadQuery,
      handler: async function readAspect(req) {
        const parsed = urnOfPath(deps, req.params)
        const { version, systemMetadata } = req.query as { version: number; systemMetadata: boolean }
        const entity = await readEntityV3(model, parsed, new Map([[req.params.aspectName!, version]]), systemMetadata)
        const aspect = entity?.[req.params.aspectName!]
        return aspect ? { body: aspect } : NOT_FOUND
      },
    },
    {
      method: 'GET', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}`, match: entityOf, scope: 'read',
      summary: 'An entity: {"urn", "<aspect>": {"value", ...}} with the aspects named (aspects or aspectNames, repeatable), else all; 404 when none exists',
      pathParam: EntityPath, query: EntityReadQuery,
      handler: async function readEntity(req) {
        const parsed = urnOfPath(deps, req.params)
        const requested = requestedAspects(req.query)
        const entity = await readEntityV3(model, parsed, resolveAspects(model, parsed, requested), flagsOf(req).systemMetadata ?? false, requested.length === 0)
        return entity ? { body: entity } : NOT_FOUND
      },
    },
    {
      method: 'HEAD', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, scope: 'read',
      summary: 'Whether an aspect exists: 204, else 404',
      pathParam: AspectPath, query: ExistsQuery,
      handler: async function aspectExists(req) {
        const parsed = urnOfPath(deps, req.params)
        return await existsV3(model, parsed, req.params.aspectName, flagsOf(req).includeSoftDelete ?? false) ? { status: 204, body: null, raw: '' } : { status: 404, body: null, raw: '' }
      },
    },
    {
      method: 'HEAD', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}`, match: entityOf, scope: 'read',
      summary: 'Whether an entity exists: 204, else 404',
      pathParam: EntityPath, query: ExistsQuery,
      handler: async function entityExists(req) {
        const parsed = urnOfPath(deps, req.params)
        return await existsV3(model, parsed, undefined, flagsOf(req).includeSoftDelete ?? false) ? { status: 204, body: null, raw: '' } : { status: 404, body: null, raw: '' }
      },
    },
    {
      method: 'POST', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, body: true, requestSchema: AspectBody, scope: 'write',
      summary: 'Create or replace one aspect: {"value", "systemMetadata"?, "headers"?}; createIfNotExists=true / createIfEntityNotExists=true make it conditional (412 otherwise)',
      pathParam: AspectPath, query: AspectUpsertQuery,
      handler: writeAspect('UPSERT'),
    },
    {
      method: 'PATCH', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, body: true, requestSchema: AspectBody, scope: 'write',
      summary: 'Patch one aspect: {"patch": [...], "arrayPrimaryKeys"?} (or {"value": {...}}); answers the patched aspect',
      pathParam: AspectPath, query: AspectWriteQuery,
      handler: writeAspect('PATCH'),
    },
    {
      method: 'DELETE', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, scope: 'write',
      summary: 'Delete one aspect (all its versions); answers once applied',
      pathParam: AspectPath,
      handler: async function deleteAspect(req) {
        const parsed = urnOfPath(deps, req.params)
        const spec = registry.aspectOf(parsed.entity, req.params.aspectName!)
        if (spec.timeseries) throw fail('UNSUPPORTED_CHANGE', `timeseries aspect ${spec.name} cannot be deleted here`, [{ path: 'aspectName', message: 'timeseries aspect' }])
        const item: WriteItem = spec.name === parsed.entity.keyAspect
          ? { op: 'deleteEntity', urn: parsed.urn, entityType: parsed.entity.name }
          : { op: 'delete', urn: parsed.urn, entityType: parsed.entity.name, aspect: spec.name }
        await writeV3(deps, [item], req, false, traceIdOf(req.headers))
        return { status: 200, body: null, raw: '' }
      },
    },
    {
      method: 'DELETE', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}`, match: entityOf, scope: 'write',
      summary: 'Hard delete of an entity; aspects=<name> (repeatable) deletes only those, clear=true every aspect but the key',
      pathParam: EntityPath, query: EntityDeleteQuery,
      handler: async function deleteEntity(req) {
        const parsed = urnOfPath(deps, req.params)
        const base = { urn: parsed.urn, entityType: parsed.entity.name }
        const { clear, aspects = [] } = req.query as { clear: boolean; aspects?: string[] }
        const named = aspects.map((n) => registry.aspectOf(parsed.entity, aspectNamed(registry, parsed.entity.name, n) ?? n).name)
        const stored = clear ? [...(await store.latest(parsed.urn)).keys()].filter((n) => n !== parsed.entity.keyAspect && !registry.findAspect(n)?.timeseries) : named
        const items: WriteItem[] = (!clear && (named.length === 0 || named.includes(parsed.entity.keyAspect)))
          ? [{ op: 'deleteEntity', ...base }]
          : stored.filter((n) => !registry.findAspect(n)?.timeseries).map((aspect) => ({ op: 'delete', ...base, aspect }))
        await writeV3(deps, items, req, false, traceIdOf(req.headers))
        return { status: 200, body: null, raw: '' }
      },
    },
  ]
}
