/**
 * buildServer(deps): the Restify gateway with every route mounted. It never listens itself (a main.ts does), so
 * tests build one on a random port. Routes sharing a method and path are told apart by `?action=`; errors of any
 * kind leave through one handler with one body shape.
 */
import type { ServerResponse } from 'node:http'
import restify, { type Request, type Response, type Server } from 'restify'
import { CatalogError, fail } from '../model/errors.ts'
import type { GatewayDeps } from './deps.ts'
import { authenticate } from './http/auth.ts'
import { readJsonBody } from './http/body.ts'
import { isServiceFault, toCatalogError } from './http/errors.ts'
import { checkQuery, pathChecker, queryChecker, stringParam } from './http/params.ts'
import { answerClientError } from './http/clientErrors.ts'
import { malformedEscape } from './http/pathEscapes.ts'
import { bodyChecker, type Method, type Query, type RouteSpec } from './http/route.ts'
import { aspectsRoutes } from './routes/aspects.ts'
import { configRoutes } from './routes/config.ts'
import { entitiesRoutes } from './routes/entities.ts'
import { entitiesV2Routes } from './routes/entitiesV2.ts'
import { docsRoutes } from './routes/docs.ts'
import { healthRoutes } from './routes/health.ts'
import { requestSeconds, requestsTotal, watchQueueDepth } from './metrics.ts'
import { operationsRoutes } from './routes/operations.ts'
import { openapiEntityRoutes } from './routes/openapiEntities.ts'
import { openapiScrollRoutes } from './routes/openapiScroll.ts'
import { openapiRelationshipRoutes } from './routes/openapiRelationships.ts'
import { openapiV1Routes } from './routes/openapiV1.ts'
import { relationshipRoutes } from './routes/relationships.ts'
import { searchRoutes } from './routes/search.ts'
import { catalogRoutes } from './routes/catalog.ts'
import { tokenRoutes } from './routes/tokens.ts'
import { uiRoutes } from './routes/ui.ts'

/** Every route of the API, in documentation order, then the documentation's own routes. */
export function allRoutes(deps: GatewayDeps): RouteSpec[] {
  const api = [...aspectsRoutes(deps), ...entitiesRoutes(deps), ...searchRoutes(deps), ...entitiesV2Routes(deps), ...relationshipRoutes(deps), ...operationsRoutes(deps), ...configRoutes(deps), ...healthRoutes(deps), ...catalogRoutes(deps), ...tokenRoutes(deps), ...openapiScrollRoutes(deps), ...openapiEntityRoutes(deps), ...openapiRelationshipRoutes(deps), ...openapiV1Routes(deps)]
  return [...api, ...docsRoutes(deps, api), ...uiRoutes(deps)]
}

function sendJson(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}, contentType = 'application/json; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)), ...headers })
  res.end(body)
}

/** Sends a catalogue error (any thrown value is converted first). */
function sendError(deps: GatewayDeps, req: Request, res: ServerResponse, thrown: unknown): void {
  const err = toCatalogError(thrown)
  if (isServiceFault(err)) deps.log.error('request failed', { method: req.method, url: req.url, error: thrown instanceof Error ? thrown.stack : String(thrown) })
  const headers: Record<string, string> = err.retryAfter !== undefined ? { 'retry-after': String(err.retryAfter) } : {}
  if (!res.headersSent) sendJson(res, err.status, JSON.stringify(err.toBody()), headers)
}

function actionOf(query: Query): string | undefined {
  const action = query.action
  return Array.isArray(action) ? action[0] : action
}

/** The urn a request body is about (proposal, snapshot, or a plain `urn` field), for the request log. */
function urnOfBody(body: unknown): string | undefined {
  const b = body as { proposal?: { entityUrn?: unknown }; urn?: unknown; entity?: { value?: Record<string, { urn?: unknown }> } } | undefined
  const found = b?.proposal?.entityUrn ?? b?.urn ?? Object.values(b?.entity?.value ?? {})[0]?.urn
  return typeof found === 'string' ? found : undefined
}

/** The route of a wildcard group whose `match` accepts the wildcard's value, with the parameters it took. */
function matchWildcard(routes: RouteSpec[], wildcard: string): { route: RouteSpec; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const params = route.match?.(wildcard)
    if (params) return { route, params }
  }
  return undefined
}

/** Mounts routes sharing a method and path, dispatching on `?action=` (or, for matching routes, on the wildcard's shape). */
function mount(server: Server, deps: GatewayDeps, method: Method, path: string, routes: RouteSpec[]): void {
  const matching = routes.some((r) => r.match)
  const byAction = new Map(routes.map((r) => [r.action, r]))
  const checkBody = new Map(routes.map((r) => [r, bodyChecker(r)]))
  const checkQueryOf = new Map(routes.map((r) => [r, queryChecker(r.query)]))
  const checkPath = new Map(routes.map((r) => [r, pathChecker(r.pathParam)]))
  const actions = routes.map((r) => r.action).filter((a): a is string => !!a)
  const handler = async (req: Request, res: Response): Promise<void> => {
    const started = performance.now()
    let routeName = `${method} ${path}`
    let urn: string | undefined
    try {
      const query = checkQuery((req.query ?? {}) as Record<string, unknown>)
      const action = actionOf(query)
      const wildcard = (req.params as Record<string, string> | undefined)?.['*']
      const matched = matching ? matchWildcard(routes, wildcard ?? '') : undefined
      if (matching && !matched) throw new CatalogError('NOT_FOUND', `no route ${method} ${req.getPath()}`)
      const route = matched?.route ?? byAction.get(action) ?? (actions.length > 0 && action === undefined ? undefined : byAction.get(undefined))
      if (!route) {
        throw fail('INVALID_REQUEST', action === undefined ? `${method} ${path} needs ?action= (one of: ${actions.join(', ')})` : `unknown action "${action}" on ${method} ${path}`,
          [{ path: 'action', message: `one of: ${actions.join(', ')}` }])
      }
      routeName = route.action ? `${method} ${path}?action=${route.action}` : routeName
      const { actor, granted } = await authenticate(deps.model.config, deps.tokens, route.scope, req.headers)
      const body = checkBody.get(route)!(route.body ? await readJsonBody(req, deps.model.config.maxBodyBytes) : undefined)
      // Routes with `match` took their path parameters from the wildcard's shape; plain wildcards are checked here.
      const params = matched ? matched.params : checkPath.get(route)!(wildcard)
      const declared = checkQueryOf.get(route)!(query)
      urn = params.urn ?? urnOfBody(body) ?? stringParam(query, 'urn')
      const reply = await route.handler({ query: declared, params, body, headers: req.headers, actor, granted })
      sendJson(res, reply.status ?? 200, reply.raw ?? JSON.stringify(reply.body), reply.headers, reply.contentType)
    } catch (err) {
      sendError(deps, req, res, err)
    } finally {
      const seconds = (performance.now() - started) / 1000
      requestsTotal.inc({ method, route: routeName, status: String(res.statusCode) })
      requestSeconds.observe({ method, route: routeName }, seconds)
      if (deps.log.enabled('info')) {
        deps.log.info('request', { method, route: routeName, status: res.statusCode, ms: Math.round(seconds * 100_000) / 100, ...(urn ? { urn } : {}) })
      }
    }
  }
  const mountOn = { GET: server.get, HEAD: server.head, POST: server.post, PATCH: server.patch, DELETE: server.del }[method]
  mountOn.call(server, path, handler)
}

/** How long an idle client connection stays open. */
const KEEP_ALIVE_MS = 65_000

/** Builds the gateway; call `listen` on the result to serve. */
export function buildServer(deps: GatewayDeps, routes: RouteSpec[] = allRoutes(deps)): Server {
  watchQueueDepth(() => deps.writer.depths())
  const server = restify.createServer({ name: 'svc-catalog', handleUncaughtExceptions: false })
  // An idle keep-alive connection is closed after KEEP_ALIVE_MS, longer than clients and proxies keep theirs (60 s is
  // common): Node's default (5 s) closed sockets that clients were reusing at that moment (ECONNRESET on a request).
  server.server.keepAliveTimeout = KEEP_ALIVE_MS
  server.server.headersTimeout = KEEP_ALIVE_MS + 1000
  // A path the router cannot decode gets a 400 naming the escape (it would be 404 "no route").
  server.pre((req: Request, res: Response, next: (stop?: false) => void) => {
    const bad = malformedEscape((req.url ?? '').split('?')[0]!)
    if (bad === undefined) return next()
    sendError(deps, req, res, fail('INVALID_REQUEST', `the path has a malformed %-escape "${bad}": write % as %25, and escape other characters as %XX (two hex digits) of their UTF-8 bytes`,
      [{ path: 'path', message: `malformed escape "${bad}"` }]))
    return next(false)
  })
  server.use(restify.plugins.queryParser({ mapParams: false }))
  const groups = new Map<string, RouteSpec[]>()
  for (const route of routes) {
    for (const path of [route.path, ...(route.aliases ?? [])]) {
      const key = `${route.method} ${path}`
      groups.set(key, [...(groups.get(key) ?? []), route])
    }
  }
  for (const [key, group] of groups) {
    const [method, path] = key.split(' ') as [Method, string]
    mount(server, deps, method, path, group)
  }
  // Restify's own errors (no route, method not allowed, malformed URL): same body shape as ours.
  server.on('restifyError', (req: Request, res: Response, err: { statusCode?: number; message?: string }, next: () => void) => {
    const status = err.statusCode ?? 500
    const mapped = status === 404 ? new CatalogError('NOT_FOUND', `no route ${req.method} ${req.getPath()}`)
      : status === 405 ? new CatalogError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.getPath()}`)
        : status < 500 ? new CatalogError('INVALID_REQUEST', err.message ?? 'invalid request')
          : err
    const catalogError = toCatalogError(mapped)
    if (isServiceFault(catalogError)) deps.log.error('request failed', { method: req.method, url: req.url, error: String(err.message) })
    res.send(catalogError.status, catalogError.toBody())
    next()
  })
  // Requests Node's HTTP parser refuses before any route runs (over-long request line or headers, bad syntax).
  server.on('clientError', answerClientError)
  return server
}
