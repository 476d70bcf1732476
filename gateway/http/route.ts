/**
 * Routes as data: method, path, the `action` query value they answer (for Rest.li-style POST actions), and a
 * handler that receives validated inputs and returns a reply. The server (gateway/server.ts) mounts them; the
 * OpenAPI document (gateway/docs/) is generated from the same list, so docs cannot drift from code.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { TSchema } from 'typebox'

export type Query = Record<string, string | string[] | undefined>

/** What a handler sees. */
export interface RouteRequest {
  query: Query
  /** Decoded path parameters (`urn` for urn routes). */
  params: Record<string, string>
  /** Parsed JSON body (routes with `body: true`). */
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

export interface RouteSpec {
  method: 'GET' | 'POST'
  path: string
  action?: string
  summary: string
  scope: Scope
  /** The route reads a JSON body. */
  body?: boolean
  /** Request body schema (documentation; handlers validate). */
  requestSchema?: TSchema
  /** Query parameters (documentation). */
  parameters?: { name: string; in: 'query' | 'path'; required?: boolean; description: string; schema?: TSchema }[]
  responseSchema?: TSchema
  example?: { request?: unknown; response?: unknown }
  /** Also mounted under these paths (e.g. `/gms/operations`). */
  aliases?: string[]
  handler: (req: RouteRequest) => Promise<Reply>
}
