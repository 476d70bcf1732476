/**
 * Routes as data: method, path, the `action` query value they answer (for Rest.li-style POST actions), the schemas
 * of their request body, query and path parameters, and a named handler that receives validated inputs and returns
 * a reply. The server (gateway/server.ts) mounts them and validates every body here and every parameter in
 * params.ts, in one place, with validators compiled once when the routes are mounted; the OpenAPI document
 * (gateway/docs/) is generated from the same list, so docs cannot drift from code.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { TObject, TSchema } from 'typebox'
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

/** The HTTP methods routes use. */
export type Method = 'GET' | 'POST' | 'DELETE'

export interface RouteSpec {
  method: Method
  /** The mount path; a trailing `*` takes the path parameter (`pathParam`). */
  path: string
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
   * Query parameters, one property each (descriptions and defaults included): read, validated and documented from
   * this schema (gateway/http/params.ts); the handler gets them typed in `req.query`.
   */
  query?: TObject
  /** The path parameter of a wildcard route (`/entitiesV2/*`), as a one-property schema; default `{urn: string}`. */
  pathParam?: TObject
  responseSchema?: TSchema
  example?: { request?: unknown; response?: unknown }
  /** Also mounted under these paths (e.g. `/gms/operations`). */
  aliases?: string[]
  handler: (req: RouteRequest) => Promise<Reply>
}

/**
 * The body check of a route: compiles the route's schema now (once, at start-up) and answers a function that returns
 * the body when it matches, or throws a 400 INVALID_REQUEST naming every problem.
 */
export function bodyChecker(route: RouteSpec): (body: unknown) => unknown {
  const schema = route.requestSchema
  const optional = route.body === 'optional'
  if (!schema) return (body) => (body === undefined && optional ? {} : body)
  validatorOf(schema)
  const message = route.requestError ?? `invalid ${route.action ?? `${route.method} ${route.path}`} request`
  return (body) => validateOrThrow(schema, body === undefined && optional ? {} : body, 'INVALID_REQUEST', message)
}
