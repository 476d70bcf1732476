/**
 * Authentication exactly as documented, with AUTH_ENABLED=true: every mounted route (and alias) asked with no
 * token, a read, a write and an admin token; only public routes (health, the API docs, the UI's page and files)
 * answer without one; /metrics and /ready need one; hard deletes need the admin scope whatever route carries them.
 * And with authentication off: only admin routes need a token.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { GatewayDeps } from '../../gateway/deps.ts'
import { allRoutes } from '../../gateway/server.ts'
import type { RouteSpec } from '../../gateway/http/route.ts'
import { startService, tokenFor, type TestService } from '../helpers/service.ts'

type Caller = 'none' | 'read' | 'write' | 'admin'
const CALLERS: Caller[] = ['none', 'read', 'write', 'admin']
const RANK = { none: -1, read: 0, write: 1, admin: 2 } as const
const SAMPLE_URN = 'urn:svc:corpuser:auth-matrix'

interface Ctx { svc: TestService; tokens: Record<Caller, string | undefined> }

/** The routes the service mounts, read from the same list its server is built from (handlers are not called). */
function mountedRoutes(svc: TestService): RouteSpec[] {
  const deps = { model: svc.gateway.model, log: undefined, writer: undefined, asyncWriter: undefined, tokens: undefined } as unknown as GatewayDeps
  return allRoutes(deps)
}

/** Values for the path parameters of routes that share a wildcard (`docPath`): a path of each route's own shape. */
const SAMPLE_PATH_PARAMS: Record<string, string> = { entityName: 'corpuser', urn: encodeURIComponent(SAMPLE_URN), aspectName: 'corpUserInfo' }

/**
 * One concrete request per mounted path of a route: wildcards filled in (routes with `match`: their documented
 * path, so the request reaches that route and not a sibling of the same wildcard), `?action=` added.
 */
function requestsOf(route: RouteSpec): { method: string; path: string }[] {
  const paths = route.match && route.docPath
    ? [route.docPath.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE_PATH_PARAMS[name] ?? name)]
    : [route.path, ...(route.aliases ?? [])].map((path) => path.replace(/\*$/, encodeURIComponent(SAMPLE_URN)))
  return paths.map((path) => ({ method: route.method, path: `${path}${route.action ? `?action=${route.action}` : ''}` }))
}

/** What a caller should meet on a route of `scope` with AUTH_ENABLED (or without it). */
export function expected(scope: RouteSpec['scope'], caller: Caller, authEnabled: boolean): 'pass' | 401 | 403 {
  if (scope === 'public' || (scope !== 'admin' && !authEnabled)) return 'pass'
  if (caller === 'none') return 401
  return RANK[caller] >= RANK[scope] ? 'pass' : 403
}

/** Routes whose sample request is a hard delete: with AUTH_ENABLED a write token meets 403 there (admin scope). */
const HARD_DELETES = new Set(['DELETE /openapi/v3/entity/{entityName}/{urn}'])

const bearer = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {})

async function checkMatrix(ctx: Ctx, authEnabled: boolean): Promise<number> {
  let checked = 0
  const problems: string[] = []
  for (const route of mountedRoutes(ctx.svc)) {
    for (const request of requestsOf(route)) {
      for (const caller of CALLERS) {
        const res = await ctx.svc.call(request.method, request.path, undefined, bearer(ctx.tokens[caller]))
        const hardDelete = HARD_DELETES.has(`${route.method} ${route.docPath ?? route.path}`)
        const want = expected(hardDelete && authEnabled ? 'admin' : route.scope, caller, authEnabled)
        const ok = want === 'pass' ? res.status !== 401 && res.status !== 403 : res.status === want
        if (!ok) problems.push(`${request.method} ${request.path} as ${caller}: ${res.status}, expected ${want}`)
        checked++
      }
    }
  }
  assert.equal(problems, [])
  return checked
}

const on = suite<Ctx>('auth: AUTH_ENABLED=true, the whole matrix')
on.before(async (ctx) => {
  ctx.svc = await startService({ authEnabled: true, adminToken: 'auth-test-admin-secret' })
  ctx.tokens = { none: undefined, read: await tokenFor(ctx.svc, 'read'), write: await tokenFor(ctx.svc, 'write'), admin: await tokenFor(ctx.svc, 'admin') }
})
on.after(async (ctx) => { await ctx.svc.close() })

on('the documented scopes: only health, docs and the UI\'s files are public; /ready and /metrics are read routes', ({ svc }) => {
  const routes = mountedRoutes(svc)
  const publicPaths = routes.filter((r) => r.scope === 'public').map((r) => r.path)
  for (const path of publicPaths) assert.ok(path === '/health' || path.startsWith('/svc/') || path === '/' || path.startsWith('/ui'), `public: ${path}`)
  assert.ok(publicPaths.includes('/health'))
  for (const path of ['/ready', '/metrics']) assert.is(routes.find((r) => r.path === path)?.scope, 'read', path)
  for (const path of ['/tokens', '/tokens/*']) assert.is(routes.find((r) => r.path === path)?.scope, 'admin', path)
})

on('every route x no token / read / write / admin answers as its scope says', async (ctx) => {
  const checked = await checkMatrix(ctx, true)
  assert.ok(checked > 100, `${checked} requests`)
})

on('/metrics and /ready: 401 without a token, 200 with a read token (as Prometheus sends it)', async ({ svc, tokens }) => {
  for (const path of ['/metrics', '/ready']) {
    const denied = await svc.call('GET', path)
    assert.is(denied.status, 401, path)
    assert.is(denied.body.code, 'UNAUTHORIZED')
  }
  const metrics = await fetch(`${svc.url}/metrics`, { headers: bearer(tokens.read) })
  assert.is(metrics.status, 200)
  assert.match(await metrics.text(), /svc_http_requests_total|# HELP/)
  assert.is((await svc.call('GET', '/health')).status, 200)
  assert.is((await svc.call('GET', '/svc/openapi.json')).status, 200)
})

on('a hard delete needs the admin scope on every route that carries one; a write token may still delete an aspect', async ({ svc, tokens }) => {
  const urn = 'urn:svc:corpuser:hard-delete-scope'
  const upsert = { proposal: { entityType: 'corpuser', entityUrn: urn, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ active: true, displayName: 'H' }), contentType: 'application/json' } } }
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', upsert, bearer(tokens.write))).status, 200)
  const keyDelete = { entityType: 'corpuser', entityUrn: urn, changeType: 'DELETE', aspectName: 'corpUserKey' }

  const single = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: keyDelete }, bearer(tokens.write))
  assert.is(single.status, 403)
  assert.is(single.body.code, 'FORBIDDEN')
  assert.match(single.body.message, /cannot hard-delete urn:svc:corpuser:hard-delete-scope: that needs an admin token/)
  const entity = await svc.call('POST', '/entities?action=delete', { urn }, bearer(tokens.write))
  assert.is(entity.status, 403)
  assert.equal(entity.body.details, [{ path: 'urn', message: 'needs scope admin' }])
  const batch = await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals: [upsert.proposal, keyDelete] }, bearer(tokens.write))
  assert.is(batch.status, 200)
  assert.is(batch.body.value.accepted, 1)
  assert.is(batch.body.value.results[1].status, 403)
  assert.equal(batch.body.value.results[1].error.details, [{ path: 'proposals[1].changeType', message: 'needs scope admin' }])
  // still there
  const read = await svc.call('GET', `/entitiesV2/${encodeURIComponent(urn)}`, undefined, bearer(tokens.read))
  assert.ok(read.body.aspects.corpUserInfo, JSON.stringify(read.body))

  // an aspect delete (not the key aspect) is a write
  const aspect = await svc.call('POST', '/entities?action=delete', { urn, aspectName: 'corpUserInfo' }, bearer(tokens.write))
  assert.is(aspect.status, 200, JSON.stringify(aspect.body))
  // upstream's OpenAPI v3 deletes: the entity, or its key aspect, are hard deletes; another aspect is a write
  const v3 = `/openapi/v3/entity/corpuser/${encodeURIComponent(urn)}`
  for (const path of [v3, `${v3}/corpUserKey`]) {
    const denied = await svc.call('DELETE', path, undefined, bearer(tokens.write))
    assert.is(denied.status, 403, path)
    assert.equal(denied.body.details, [{ path: 'urn', message: 'needs scope admin' }])
  }
  assert.is((await svc.call('DELETE', `${v3}/corpUserInfo`, undefined, bearer(tokens.write))).status, 200)
  // the admin token (stored, or ADMIN_TOKEN) may hard-delete
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', { proposal: keyDelete }, bearer(tokens.admin))).status, 200)
  assert.is((await svc.call('POST', '/entities?action=delete', { urn }, bearer('auth-test-admin-secret'))).status, 200)
  assert.is((await svc.call('DELETE', v3, undefined, bearer(tokens.admin))).status, 200)
})

on.run()

const off = suite<Ctx>('auth: AUTH_ENABLED=false, only admin routes need a token')
off.before(async (ctx) => {
  ctx.svc = await startService({ authEnabled: false })
  ctx.tokens = { none: undefined, read: await tokenFor(ctx.svc, 'read'), write: await tokenFor(ctx.svc, 'write'), admin: await tokenFor(ctx.svc, 'admin') }
})
off.after(async (ctx) => { await ctx.svc.close() })

off('every route x no token / read / write / admin', async (ctx) => {
  await checkMatrix(ctx, false)
  // hard delete without a token, as upstream's clients do when authentication is off
  const urn = 'urn:svc:corpuser:no-auth-delete'
  assert.is((await ctx.svc.call('POST', '/entities?action=delete', { urn })).status, 200)
})

off.run()
