/**
 * Routes as data: method, path, the `action` query value they answer (for Rest.li-style POST actions), the schemas
 * of their request body, query and path parameters, and a named handler that receives validated inputs and returns
 * a reply. The server (gateway/server.ts) mounts them and validates every body here and every parameter in
 * params.ts, in one place, with validators compiled once when the routes are mounted; the OpenAPI document
 * (gateway/docs/) is generated from the same list, so docs cannot drift from code.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { TObject, TSchema } from 'typebox'
import { withoutNulls } from '../../model/schemaWalk.ts'
import { validateOrThrow, validatorOf } from '../../model/validate.ts'

export type Query = Record<string, string | string[] | undefined>

/** What a handler sees. */
export interface RouteRequest {
  /** The route's declared query parameters, read and validated against its `query` schema. */
  query: Record<string, unknown>
  /** The decoded path parameter of a wildcard route, under its declared name (`urn` unless declared), validated. */
  params: Record<string, string>
  /** Parsed JSON body (routes with `body`), already checked against the route's requestSchema. */
  body: unknown
  headers: IncomingHttpHeaders
  /** Who is calling (token subject, or the system actor when authentication is off). */
  actor: string
  /** The scope of the caller's token; absent when the route asked for none (public, or authentication off). */
  granted?: 'read' | 'write' | 'admin'
}

export interface Reply {
  status?: number
  body: unknown
  headers?: Record<string, string>
  /** Body already serialized (fast path), or bytes (files). */
  raw?: string | Buffer
  /** Content type of `raw` when it is not JSON (e.g. `text/html; charset=utf-8`). */
  contentType?: string
}

/**
 * Which token scope a route needs: `admin` routes always need a token; `read` and `write` routes only when
 * AUTH_ENABLED is true; `public` routes (docs, health) never.
 */
export type Scope = 'public' | 'read' | 'write' | 'admin'

/** The HTTP methods routes are mounted on. */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE'

export interface RouteSpec {
  method: Method
  /** The mount path; a trailing `*` takes the path parameter (`pathParam`, or `match` for shared wildcards). */
  path: string
  /**
   * For routes sharing a wildcard path (`/openapi/v3/entity/*`): the path parameters this route takes from the
   * wildcard's value, or null when the value is not its shape. The first route that matches answers.
   */
  match?: (wildcard: string) => Record<string, string> | null
  /** The path the documentation shows when it differs from `path` (e.g. `/openapi/v3/entity/{entityName}/{urn}`). */
  docPath?: string
  action?: string
  summary: string
  scope: Scope
  /** The route reads a JSON body: `true` (required) or `'optional'` (an absent body counts as `{}`). */
  body?: boolean | 'optional'
  /** Request body schema: validated before the handler runs (and documented). */
  requestSchema?: TSchema
  /** What a body that does not match requestSchema is told (the problems follow); a default names the route. */
  requestError?: string
  /**
   * The body carries records as upstream's writers send them (proposals, snapshots): a `null` in an optional field
   * is an absent field. Other routes take a `null` as the wrong type it is.
   */
  nullIsAbsent?: boolean
  /**
   * Query parameters, one property each (descriptions and defaults included): read, validated and documented from
   * this schema (gateway/http/params.ts); the handler gets them typed in `req.query`.
   */
  query?: TObject
  /**
   * The path parameter of a plain wildcard route (`/entitiesV2/*`), as a one-property schema; default `{urn: string}`.
   * Routes with `match` take their path parameters from it instead.
   */
  pathParam?: TObject
  responseSchema?: TSchema
  example?: { request?: unknown; response?: unknown }
  /** Also mounted under these paths (e.g. `/gms/operations`). */
  aliases?: string[]
  handler: (req: RouteRequest) => Promise<Reply>
}

/**
 * The body check of a route: compiles the route's schema now (once, at start-up) and answers a function that returns
 * the body when it matches (records: without the nulls of their optional fields), or throws a 400 INVALID_REQUEST
 * naming every problem.
 */
export function bodyChecker(route: RouteSpec): (body: unknown) => unknown {
  const schema = route.requestSchema
  const optional = route.body === 'optional'
  if (!schema) return (body) => (body === undefined && optional ? {} : body)
  validatorOf(schema)
  const message = route.requestError ?? `invalid ${route.action ?? `${route.method} ${route.path}`} request`
  // Records: a null in an optional field is absent (upstream's writers write them); in a required one a 400 naming it.
  const read = route.nullIsAbsent ? (body: unknown) => withoutNulls(schema, body) : (body: unknown) => body
  return (body) => validateOrThrow(schema, read(body === undefined && optional ? {} : body), 'INVALID_REQUEST', message)
}
