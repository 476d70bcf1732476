/**
 * Routes as data: method, path, the `action` query value they answer (for Rest.li-style POST actions), the schema of
 * their request body, and a handler that receives validated inputs and returns a reply. The server
 * (gateway/server.ts) mounts them and validates every body here, in one place, with validators compiled once when
 * the routes are mounted; the OpenAPI document (gateway/docs/) is generated from the same list, so docs cannot
 * drift from code.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { TSchema } from 'typebox'
import { withoutNulls } from '../../model/schemaWalk.ts'
import { validateOrThrow, validatorOf } from '../../model/validate.ts'

export type Query = Record<string, string | string[] | undefined>

/** What a handler sees. */
export interface RouteRequest {
  query: Query
  /** Decoded path parameters (`urn` for urn routes). */
  params: Record<string, string>
  /** Parsed JSON body (routes with `body`), already checked against the route's requestSchema. */
  body: unknown
  headers: IncomingHttpHeaders
  /** Who is calling (token subject, or the system actor when authentication is off). */
  actor: string
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
  /** Query parameters (documentation). */
  parameters?: { name: string; in: 'query' | 'path'; required?: boolean; description: string; schema?: TSchema }[]
  responseSchema?: TSchema
  example?: { request?: unknown; response?: unknown }
  /** Also mounted under these paths (e.g. `/gms/operations`). */
  aliases?: string[]
  handler: (req: RouteRequest) => Promise<Reply>
}

/**
 * The body check of a route: compiles the route's schema now (once, at start-up) and answers a function that returns
 * the body when it matches (without the nulls of its optional fields), or throws a 400 INVALID_REQUEST naming every problem.
 */
export function bodyChecker(route: RouteSpec): (body: unknown) => unknown {
  const schema = route.requestSchema
  const optional = route.body === 'optional'
  if (!schema) return (body) => (body === undefined && optional ? {} : body)
  validatorOf(schema)
  const message = route.requestError ?? `invalid ${route.action ?? `${route.method} ${route.path}`} request`
  // A null in an optional field is absent (upstream clients write them); in a required one it is a 400 naming it.
  return (body) => validateOrThrow(schema, withoutNulls(schema, body === undefined && optional ? {} : body), 'INVALID_REQUEST', message)
}
