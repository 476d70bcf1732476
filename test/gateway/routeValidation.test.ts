import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Type } from 'typebox'
import { CatalogError } from '../../model/errors.ts'
import { buildRegistry } from '../../model/registry.ts'
import { allRoutes } from '../../gateway/server.ts'
import { bodyChecker, type RouteSpec } from '../../gateway/http/route.ts'
import { ListParam, pathChecker, queryChecker } from '../../gateway/http/params.ts'
import type { GatewayDeps } from '../../gateway/deps.ts'

const route = (over: Partial<RouteSpec> = {}): RouteSpec => ({
  method: 'POST', path: '/things', action: 'make', summary: 's', scope: 'write', body: true,
  requestSchema: Type.Object({ name: Type.String() }), handler: async () => ({ body: {} }), ...over,
})

test('a body that does not match the route\'s schema is a 400 naming the route and every problem', () => {
  const check = bodyChecker(route())
  assert.equal(check({ name: 'x' }), { name: 'x' })
  try {
    check({ name: 3 })
    assert.unreachable()
  } catch (err) {
    assert.instance(err, CatalogError)
    assert.is((err as CatalogError).code, 'INVALID_REQUEST')
    assert.match((err as CatalogError).message, 'invalid make request')
    assert.equal((err as CatalogError).details.map((d) => d.path), ['/name'])
  }
  assert.throws(() => check(undefined), (e: CatalogError) => e.code === 'INVALID_REQUEST')
  assert.throws(() => bodyChecker(route({ requestError: 'say {"name"}' }))({}), /say \{"name"\}/)
})

test('an optional body counts as {} when absent', () => {
  assert.equal(bodyChecker(route({ body: 'optional', requestSchema: Type.Object({ n: Type.Optional(Type.Integer()) }) }))(undefined), {})
})

test('every API route that reads a body declares its schema', () => {
  const deps = { model: { registry: buildRegistry() } } as unknown as GatewayDeps
  const withBody = allRoutes(deps).filter((r) => r.body)
  assert.ok(withBody.length >= 10)
  for (const r of withBody) assert.ok(r.requestSchema, `${r.method} ${r.path}?action=${r.action} has no requestSchema`)
})

test('query parameters are read by their schema\'s kind, defaulted, and validated in one place; problems name them', () => {
  const check = queryChecker(Type.Object({
    urn: Type.String({ minLength: 1 }),
    direction: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
    start: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    types: Type.Optional(ListParam('names')),
  }))
  assert.equal(check({ urn: 'u', direction: 'down', types: 'List(a,b%2Cc)', action: 'x' }), { urn: 'u', direction: 'DOWN', start: 0, types: ['a', 'b,c'] })
  assert.equal(check({ urn: ['u', 'v'], direction: 'UP', start: '5', count: '', types: ['a', 'b'] }), { urn: 'u', direction: 'UP', start: 5, types: ['a', 'b'] })
  assert.equal(check({ urn: 'u', direction: 'UP', types: 'a,b' }).types, ['a', 'b'])
  const problem = (query: Record<string, string>) => {
    try {
      check(query)
    } catch (err) {
      assert.instance(err, CatalogError)
      assert.is((err as CatalogError).code, 'INVALID_REQUEST')
      return { message: (err as CatalogError).message, paths: (err as CatalogError).details.map((d) => d.path) }
    }
    throw new Error(`no error for ${JSON.stringify(query)}`)
  }
  assert.equal(problem({ direction: 'UP' }), { message: 'query parameter "urn" is required', paths: ['urn'] })
  assert.equal(problem({ urn: 'u', direction: 'SIDEWAYS' }).paths, ['direction'])
  assert.match(problem({ urn: 'u', direction: 'UP', start: '-1' }).message, /^query parameter "start" /)
  assert.equal(problem({ urn: 'u', direction: 'UP', count: 'ten' }).paths, ['count'])
  assert.equal(problem({ urn: 'u', direction: 'UP', count: '11', start: '1.5' }).paths.sort(), ['count', 'start'])
  assert.equal(queryChecker(undefined)({ anything: 'x' }), {})
})

test('boolean query parameters: true or false in any case, their default when absent or empty, else a 400 naming them', () => {
  const check = queryChecker(Type.Object({
    async: Type.Optional(Type.Boolean({ default: true })),
    systemMetadata: Type.Optional(Type.Boolean({ default: false })),
  }))
  assert.equal(check({}), { async: true, systemMetadata: false })
  assert.equal(check({ async: 'FALSE', systemMetadata: 'True' }), { async: false, systemMetadata: true })
  assert.equal(check({ async: '', systemMetadata: ['true', 'false'] }), { async: true, systemMetadata: true })
  assert.throws(() => check({ async: 'maybe' }), (e: CatalogError) => e.code === 'INVALID_REQUEST' && /query parameter "async"/.test(e.message) && e.details[0]!.path === 'async')
  assert.throws(() => check({ async: '1' }), (e: CatalogError) => e.details[0]!.path === 'async')
})

test('the path parameter is named by its schema (urn by default) and validated', () => {
  assert.equal(pathChecker(undefined)('urn:svc:tag:x'), { urn: 'urn:svc:tag:x' })
  const id = pathChecker(Type.Object({ id: Type.String({ minLength: 1 }) }))
  assert.equal(id('abc'), { id: 'abc' })
  assert.throws(() => id(''), (e: CatalogError) => e.code === 'INVALID_REQUEST' && /path parameter "id"/.test(e.message))
})

test('every route handler has a name; no route reads query parameters it does not declare', () => {
  const deps = { model: { registry: buildRegistry() } } as unknown as GatewayDeps
  for (const r of allRoutes(deps)) {
    assert.ok(r.handler.name && r.handler.name !== 'handler', `${r.method} ${r.path} ${r.action ?? ''}: unnamed handler`)
    if (/req\.query/.test(r.handler.toString())) assert.ok(r.query, `${r.method} ${r.path}: reads req.query without a query schema`)
    if (/req\.params/.test(r.handler.toString())) assert.ok(r.path.endsWith('*'), `${r.method} ${r.path}: reads req.params without a wildcard`)
  }
})

test.run()
