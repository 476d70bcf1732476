/**
 * Upstream's OpenAPI v3 entity routes (datahub-project/datahub, metadata-service/openapi-servlet: v3
 * EntityController and the GenericEntitiesController it extends, release line 1.x), in this deployment's
 * namespace: create, read, exists, patch and delete entities and aspects, batch reads, and the cross-type
 * `generic` forms. Writes go through the one write path (gateway/http/writes.ts), checked as proposals are
 * (gateway/openapi/items.ts). The scroll routes are in openapiScroll.ts.
 */
import { fail } from '../../model/errors.ts'
import type { WriteItem } from '../../model/jobs.ts'
import { parseUrn, type ParsedUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { boolParam, intParam, listParam } from '../http/params.ts'
import type { Query, Reply, RouteRequest, RouteSpec } from '../http/route.ts'
import { v3AspectItem, v3Items, writtenEntities, type V3ChangeType } from '../openapi/items.ts'
import { aspectNamed, aspectPath, batchGetPath, entityNameOnly, entityPath } from '../openapi/paths.ts'
import { existsV3, readEntityV3, resolveAspects, type AspectVersions } from '../openapi/read.ts'
import { writeV3 } from '../openapi/submit.ts'
import { traceIdOf, traceparentOf } from '../openapi/trace.ts'
import { aspectV3 } from '../views/entityV3.ts'

const BASE = '/openapi/v3/entity'
const MAX_BATCH = 1000
const NOT_FOUND = { status: 404, body: null, raw: '', headers: { 'not-found-reason': 'ENTITY' } } as const

const pathParam = (name: string, description: string) => ({ name, in: 'path' as const, required: true, description })
const queryParam = (name: string, description: string) => ({ name, in: 'query' as const, description })
const ENTITY_NAME = pathParam('entityName', 'entity type, e.g. dataset')
const URN = pathParam('urn', 'the urn (url-encoded)')
const ASPECT_NAME = pathParam('aspectName', 'aspect name, e.g. status')
const SYSTEM_METADATA = queryParam('systemMetadata', 'true: include each aspect\'s systemMetadata and auditStamp (default false)')
const ASYNC_TRUE = queryParam('async', 'true (default): answer 202 once queued; false: 200 once applied, with the written entities')
const ASYNC_FALSE = queryParam('async', 'false (default): answer 200 once applied; true: 202 once queued')

/** The urn of a path, checked to be of the path's entity type. */
export function urnOfPath(deps: GatewayDeps, params: Record<string, string>): ParsedUrn {
  const entity = deps.model.registry.entity(params.entityName ?? '')
  const parsed = parseUrn(deps.model.registry, params.urn, 'urn')
  if (parsed.entity !== entity) throw fail('ENTITY_TYPE_MISMATCH', `the urn is a ${parsed.entity.name}, not a ${entity.name}`, [{ path: 'urn', message: `must be a ${entity.name} urn` }])
  return parsed
}

/** Aspect names of `aspects` and `aspectNames` (repeated or comma-separated). */
export const requestedAspects = (query: Query): string[] => [...(listParam(query, 'aspects') ?? []), ...(listParam(query, 'aspectNames') ?? [])]

/** The answer of a write: the written entities, 200 once applied or 202 once queued, with the trace's traceparent. */
function written(status: number, body: unknown, traceId: string): Reply {
  return { status, body, headers: { traceparent: traceparentOf(traceId) } }
}

/** POST or PATCH of an entity list of one type. */
async function writeEntities(deps: GatewayDeps, req: RouteRequest, entityName: string, body: unknown, changeType: V3ChangeType, where = 'body') {
  const asynchronous = boolParam(req.query, 'async', true)
  const traceId = traceIdOf(req.headers)
  const { items, written: echo } = v3Items(deps.model.registry, entityName, body, changeType, traceId, where)
  return { items, echo, asynchronous, traceId, withSystemMetadata: boolParam(req.query, 'systemMetadata', false) }
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
  const generic = (changeType: V3ChangeType) => async (req: RouteRequest): Promise<Reply> => {
    const traceId = traceIdOf(req.headers)
    const parts = genericParts(req.body).map(([name, list]) => ({ name, ...v3Items(registry, name, list, changeType, traceId, name) }))
    const asynchronous = boolParam(req.query, 'async', true)
    await writeV3(deps, parts.flatMap((p) => p.items), req.actor, asynchronous, traceId)
    const withSystemMetadata = boolParam(req.query, 'systemMetadata', false)
    // As upstream: an async patch answers each type with an empty list.
    const body = Object.fromEntries(parts.map((p) => [p.name, changeType === 'PATCH' && asynchronous ? [] : writtenEntities(p.written, withSystemMetadata)]))
    return written(asynchronous ? 202 : 200, body, traceId)
  }

  /** One aspect: POST (upsert) or PATCH. */
  const writeAspect = (changeType: V3ChangeType) => async (req: RouteRequest): Promise<Reply> => {
    const parsed = urnOfPath(deps, req.params)
    const aspectName = req.params.aspectName!
    const asynchronous = boolParam(req.query, 'async', false)
    const withSystemMetadata = boolParam(req.query, 'systemMetadata', false)
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
      if (boolParam(req.query, 'createIfEntityNotExists', false)) (item as { condition?: unknown }).condition = { aspect: parsed.entity.keyAspect, ifNoneMatch: true }
      else if (req.query.createIfNotExists !== undefined && boolParam(req.query, 'createIfNotExists', false)) (item as { condition?: unknown }).condition = { aspect: echo.aspect, ifNoneMatch: true }
    }
    await writeV3(deps, items, req.actor, asynchronous, traceId)
    if (asynchronous) return written(202, { urn: parsed.urn, [echo.aspect]: { value: echo.value, ...(withSystemMetadata ? { systemMetadata: echo.systemMetadata } : {}) } }, traceId)
    const env = (await store.latest(parsed.urn, [echo.aspect])).get(echo.aspect)
    const value = env ? aspectV3(env, withSystemMetadata) : { value: echo.value }
    return written(200, { urn: parsed.urn, [echo.aspect]: value }, traceId)
  }

  return [
    {
      method: 'POST', path: `${BASE}/generic`, body: true, scope: 'write',
      summary: 'Create or replace aspects of entities of several types: {"<entityName>": [{"urn", "<aspect>": {"value"}}]} (upstream v3 createGenericEntities)',
      parameters: [ASYNC_TRUE, SYSTEM_METADATA],
      handler: generic('UPSERT'),
    },
    {
      method: 'PATCH', path: `${BASE}/generic`, body: true, scope: 'write',
      summary: 'Patch aspects of entities of several types: {"<entityName>": [{"urn", "<aspect>": {"value": {"patch": [...]}}}]}',
      parameters: [ASYNC_TRUE, SYSTEM_METADATA],
      handler: generic('PATCH'),
    },
    {
      method: 'POST', path: `${BASE}/generic/batchGet`, body: true, scope: 'read',
      summary: 'Read entities of several types: {"<entityName>": [{"urn", "<aspect>"?: {"headers"?: {"If-Version-Match"}}}]}',
      parameters: [SYSTEM_METADATA],
      handler: async (req) => {
        const withSystemMetadata = boolParam(req.query, 'systemMetadata', false)
        const parts = genericParts(req.body)
        const answered = await Promise.all(parts.map(async ([name, list]) => [name, await batchGet(deps, name, list, withSystemMetadata, name)] as const))
        return { body: Object.fromEntries(answered) }
      },
    },
    {
      method: 'POST', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/batchGet`, match: batchGetPath, body: true, scope: 'read',
      summary: 'Read a batch of entities: [{"urn", "<aspect>"?: {"headers"?: {"If-Version-Match": "<version>"}}}] (no aspect named: all)',
      parameters: [ENTITY_NAME, SYSTEM_METADATA],
      handler: async (req) => ({ body: await batchGet(deps, req.params.entityName, req.body, boolParam(req.query, 'systemMetadata', false)) }),
    },
    {
      method: 'POST', path: `${BASE}/*`, docPath: `${BASE}/{entityName}`, match: entityNameOnly, body: true, scope: 'write',
      summary: 'Create or replace aspects of a batch of entities: [{"urn", "<aspect>": {"value", "systemMetadata"?, "headers"?}}]',
      parameters: [ENTITY_NAME, ASYNC_TRUE, SYSTEM_METADATA],
      example: { request: [{ urn: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,orders,PROD)', status: { value: { removed: false } } }] },
      handler: async (req) => {
        const w = await writeEntities(deps, req, req.params.entityName!, req.body, 'UPSERT')
        await writeV3(deps, w.items, req.actor, w.asynchronous, w.traceId)
        return written(w.asynchronous ? 202 : 200, writtenEntities(w.echo, w.withSystemMetadata), w.traceId)
      },
    },
    {
      method: 'PATCH', path: `${BASE}/*`, docPath: `${BASE}/{entityName}`, match: entityNameOnly, body: true, scope: 'write',
      summary: 'Patch a batch of entities: [{"urn", "<aspect>": {"value": {"patch": [...], "arrayPrimaryKeys"?}}}] (application/json-patch+json or JSON)',
      parameters: [ENTITY_NAME, ASYNC_TRUE, SYSTEM_METADATA],
      handler: async (req) => {
        const w = await writeEntities(deps, req, req.params.entityName!, req.body, 'PATCH')
        await writeV3(deps, w.items, req.actor, w.asynchronous, w.traceId)
        // Upstream answers an async patch with an empty 202, a synchronous one with the patches it applied.
        return w.asynchronous ? { status: 202, body: null, raw: '', headers: { traceparent: traceparentOf(w.traceId) } } : written(200, writtenEntities(w.echo, w.withSystemMetadata), w.traceId)
      },
    },
    {
      method: 'GET', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, scope: 'read',
      summary: 'One aspect of an entity: {"value", "systemMetadata"?, "auditStamp"?}; version 0 (default) is the latest',
      parameters: [ENTITY_NAME, URN, ASPECT_NAME, queryParam('version', 'version (0 = latest)'), SYSTEM_METADATA],
      handler: async (req) => {
        const parsed = urnOfPath(deps, req.params)
        const version = intParam(req.query, 'version', 0)!
        const entity = await readEntityV3(model, parsed, new Map([[req.params.aspectName!, version]]), boolParam(req.query, 'systemMetadata', false))
        const aspect = entity?.[req.params.aspectName!]
        return aspect ? { body: aspect } : NOT_FOUND
      },
    },
    {
      method: 'GET', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}`, match: entityOf, scope: 'read',
      summary: 'An entity: {"urn", "<aspect>": {"value", ...}} with the aspects named (aspects or aspectNames, repeatable), else all; 404 when none exists',
      parameters: [ENTITY_NAME, URN, queryParam('aspects', 'aspect names (repeatable)'), queryParam('aspectNames', 'same as aspects'), SYSTEM_METADATA],
      handler: async (req) => {
        const parsed = urnOfPath(deps, req.params)
        const requested = requestedAspects(req.query)
        const entity = await readEntityV3(model, parsed, resolveAspects(model, parsed, requested), boolParam(req.query, 'systemMetadata', false), requested.length === 0)
        return entity ? { body: entity } : NOT_FOUND
      },
    },
    {
      method: 'HEAD', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, scope: 'read',
      summary: 'Whether an aspect exists: 204, else 404',
      parameters: [ENTITY_NAME, URN, ASPECT_NAME, queryParam('includeSoftDelete', 'true: a soft-deleted entity counts (default false)')],
      handler: async (req) => {
        const parsed = urnOfPath(deps, req.params)
        return await existsV3(model, parsed, req.params.aspectName, boolParam(req.query, 'includeSoftDelete', false)) ? { status: 204, body: null, raw: '' } : { status: 404, body: null, raw: '' }
      },
    },
    {
      method: 'HEAD', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}`, match: entityOf, scope: 'read',
      summary: 'Whether an entity exists: 204, else 404',
      parameters: [ENTITY_NAME, URN, queryParam('includeSoftDelete', 'true: a soft-deleted entity counts (default false)')],
      handler: async (req) => {
        const parsed = urnOfPath(deps, req.params)
        return await existsV3(model, parsed, undefined, boolParam(req.query, 'includeSoftDelete', false)) ? { status: 204, body: null, raw: '' } : { status: 404, body: null, raw: '' }
      },
    },
    {
      method: 'POST', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, body: true, scope: 'write',
      summary: 'Create or replace one aspect: {"value", "systemMetadata"?, "headers"?}; createIfNotExists=true / createIfEntityNotExists=true make it conditional (412 otherwise)',
      parameters: [ENTITY_NAME, URN, ASPECT_NAME, ASYNC_FALSE, SYSTEM_METADATA, queryParam('createIfNotExists', 'true: only if the aspect does not exist'), queryParam('createIfEntityNotExists', 'true: only if the entity does not exist')],
      handler: writeAspect('UPSERT'),
    },
    {
      method: 'PATCH', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, body: true, scope: 'write',
      summary: 'Patch one aspect: {"patch": [...], "arrayPrimaryKeys"?} (or {"value": {...}}); answers the patched aspect',
      parameters: [ENTITY_NAME, URN, ASPECT_NAME, ASYNC_FALSE, SYSTEM_METADATA],
      handler: writeAspect('PATCH'),
    },
    {
      method: 'DELETE', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}/{aspectName}`, match: aspectOf, scope: 'write',
      summary: 'Delete one aspect (all its versions); answers once applied',
      parameters: [ENTITY_NAME, URN, ASPECT_NAME],
      handler: async (req) => {
        const parsed = urnOfPath(deps, req.params)
        const spec = registry.aspectOf(parsed.entity, req.params.aspectName!)
        if (spec.timeseries) throw fail('UNSUPPORTED_CHANGE', `timeseries aspect ${spec.name} cannot be deleted here`, [{ path: 'aspectName', message: 'timeseries aspect' }])
        const item: WriteItem = spec.name === parsed.entity.keyAspect
          ? { op: 'deleteEntity', urn: parsed.urn, entityType: parsed.entity.name }
          : { op: 'delete', urn: parsed.urn, entityType: parsed.entity.name, aspect: spec.name }
        await writeV3(deps, [item], req.actor, false, traceIdOf(req.headers))
        return { status: 200, body: null, raw: '' }
      },
    },
    {
      method: 'DELETE', path: `${BASE}/*`, docPath: `${BASE}/{entityName}/{urn}`, match: entityOf, scope: 'write',
      summary: 'Hard delete of an entity; aspects=<name> (repeatable) deletes only those, clear=true every aspect but the key',
      parameters: [ENTITY_NAME, URN, queryParam('aspects', 'delete only these aspects (repeatable)'), queryParam('clear', 'true: delete every aspect but the key aspect')],
      handler: async (req) => {
        const parsed = urnOfPath(deps, req.params)
        const base = { urn: parsed.urn, entityType: parsed.entity.name }
        const clear = boolParam(req.query, 'clear', false)
        const named = (listParam(req.query, 'aspects') ?? []).map((n) => registry.aspectOf(parsed.entity, aspectNamed(registry, parsed.entity.name, n) ?? n).name)
        const stored = clear ? [...(await store.latest(parsed.urn)).keys()].filter((n) => n !== parsed.entity.keyAspect && !registry.findAspect(n)?.timeseries) : named
        const items: WriteItem[] = (!clear && (named.length === 0 || named.includes(parsed.entity.keyAspect)))
          ? [{ op: 'deleteEntity', ...base }]
          : stored.filter((n) => !registry.findAspect(n)?.timeseries).map((aspect) => ({ op: 'delete', ...base, aspect }))
        await writeV3(deps, items, req.actor, false, traceIdOf(req.headers))
        return { status: 200, body: null, raw: '' }
      },
    },
  ]
}
