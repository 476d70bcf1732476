/**
 * The OpenAPI 3.1 document of the API, generated from the same RouteSpec list the gateway mounts, with the same
 * TypeBox schemas it validates with (TypeBox schemas are JSON Schema). Routes told apart by `?action=` become one
 * path key each (`/entities?action=search`); wildcard paths (`/entitiesV2/*`) take a path parameter `urn`.
 */
import { ERRORS } from '../../model/errors.ts'
import { pathParamName } from '../http/params.ts'
import type { RouteSpec } from '../http/route.ts'

/** Title, version and description of the document. */
export interface OpenApiInfo {
  title: string
  version: string
  description?: string
}

type Json = Record<string, unknown>

/** Our own schema keywords (search, relationship and urn annotations): not JSON Schema, so left out. */
const CUSTOM_KEYWORDS = new Set(['searchable', 'relationship', 'urnOf'])
/** Keywords whose value maps names to schemas (a property named like a custom keyword is kept). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])

/** A JSON copy of a schema without TypeBox internals (`~kind`, symbols) or our custom keywords. */
export function cleanSchema(schema: unknown): unknown {
  return strip(JSON.parse(JSON.stringify(schema ?? {})) as unknown)
}

function strip(node: unknown, isMap = false): unknown {
  if (Array.isArray(node)) return node.map((item) => strip(item))
  if (node === null || typeof node !== 'object') return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node as Json)) {
    if (!isMap && (CUSTOM_KEYWORDS.has(key) || key.startsWith('~'))) continue
    out[key] = isMap ? strip(value) : strip(value, SCHEMA_MAPS.has(key))
  }
  return out
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['status', 'code', 'message', 'details'],
  properties: {
    status: { type: 'integer', description: 'the HTTP status' },
    code: { type: 'string', enum: Object.keys(ERRORS), description: 'stable error code' },
    message: { type: 'string' },
    details: {
      type: 'array',
      items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string', description: 'JSON path or parameter name' }, message: { type: 'string' } } },
    },
  },
}
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })

/** The name of a route's path parameter (the wildcard): the declared one, else `urn`. */
const pathParamOf = (route: Pick<RouteSpec, 'pathParam'>): string => pathParamName(route.pathParam)

/** The OpenAPI path key of a route: `*` becomes `{urn}` (or its declared path parameter), an action becomes `?action=<action>`. */
export function openApiPath(route: Pick<RouteSpec, 'path' | 'action' | 'pathParam' | 'docPath'>): string {
  const path = route.docPath ?? route.path.replace(/\*$/, `{${pathParamOf(route)}}`)
  return route.action ? `${path}?action=${route.action}` : path
}

/**
 * Who needs a token, as the running service decides it: admin routes always; read and write routes only with
 * AUTH_ENABLED (so the docs page shows a lock exactly where a token is needed); public routes never.
 */
function needsToken(route: RouteSpec, authEnabled: boolean): boolean {
  return route.scope === 'admin' || (route.scope !== 'public' && authEnabled)
}

/** One documented parameter: its schema (description and default included) as JSON Schema. */
function parameterOf(name: string, where: 'query' | 'path', required: boolean, schema: unknown): Json {
  const clean = cleanSchema(schema) as Json
  const { description, ...rest } = clean
  return { name, in: where, required, ...(description ? { description } : {}), schema: rest }
}

function operation(route: RouteSpec, authEnabled: boolean): Json {
  const parameters: Json[] = []
  const declaredPath = (route.pathParam?.properties ?? {}) as Record<string, unknown>
  if (route.docPath) {
    // Routes sharing a wildcard (`match`): one path parameter per `{name}` of docPath, described by pathParam.
    for (const [, name] of route.docPath.matchAll(/\{([^}]+)\}/g)) {
      parameters.push(parameterOf(name!, 'path', true, declaredPath[name!] ?? { type: 'string' }))
    }
  } else if (route.path.endsWith('*')) {
    const [name, schema] = Object.entries(route.pathParam?.properties ?? { urn: { type: 'string', description: 'the urn (url-encoded)' } })[0]!
    parameters.push(parameterOf(name, 'path', true, schema))
  }
  const required = new Set((route.query?.required as string[] | undefined) ?? [])
  for (const [name, schema] of Object.entries(route.query?.properties ?? {})) parameters.push(parameterOf(name, 'query', required.has(name), schema))
  const response: Json = { description: 'OK' }
  if (route.responseSchema || route.example?.response !== undefined) {
    const content: Json = { schema: route.responseSchema ? cleanSchema(route.responseSchema) : {} }
    if (route.example?.response !== undefined) content.example = route.example.response
    response.content = { 'application/json': content }
  }
  const op: Json = {
    operationId: [route.method.toLowerCase(), ...(route.docPath?.replace(/[{}]/g, '') ?? route.path).split('/').filter(Boolean).map((s) => (s === '*' ? pathParamOf(route) : s)), route.action].filter(Boolean).join('_'),
    summary: route.summary,
    tags: [route.path.split('/')[1] ?? ''],
    description: [
      route.scope === 'public' ? 'No token needed.' : needsToken(route, authEnabled) ? `Needs a bearer token of scope ${route.scope} or more.` : `No token needed here (authentication is off); with AUTH_ENABLED=true: a token of scope ${route.scope} or more.`,
      route.aliases?.length ? `Also at: ${route.aliases.join(', ')}.` : '',
    ].filter(Boolean).join(' '),
    parameters,
    responses: { 200: response, 400: errorResponse('Invalid request'), default: errorResponse('Error (same body shape for every status)') },
  }
  op.security = needsToken(route, authEnabled) ? [{ bearerAuth: [] }] : []
  if (route.body) {
    const content: Json = { schema: route.requestSchema ? cleanSchema(route.requestSchema) : {} }
    if (route.example?.request !== undefined) content.example = route.example.request
    op.requestBody = { required: true, content: { 'application/json': content } }
  }
  return op
}

/**
 * Builds the OpenAPI 3.1 document of `routes` for a service with or without AUTH_ENABLED (pure; throws when two
 * routes would share a path key and method).
 */
export function openApiDocument(routes: RouteSpec[], info: OpenApiInfo, options: { authEnabled?: boolean } = {}): Json {
  const paths: Record<string, Json> = {}
  for (const route of routes) {
    const key = openApiPath(route)
    const method = route.method.toLowerCase()
    const item = (paths[key] ??= {})
    if (item[method]) throw new Error(`two routes document ${route.method} ${key}`)
    item[method] = operation(route, options.authEnabled ?? false)
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token>' } },
    },
  }
}
