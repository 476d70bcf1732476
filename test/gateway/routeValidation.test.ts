import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Type } from 'typebox'
import { CatalogError } from '../../model/errors.ts'
import { buildRegistry } from '../../model/registry.ts'
import { allRoutes } from '../../gateway/server.ts'
import { bodyChecker, type RouteSpec } from '../../gateway/http/route.ts'
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

test.run()
