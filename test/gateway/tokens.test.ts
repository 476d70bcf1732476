/**
 * Token management over HTTP (`/tokens`, admin token): a token is made with its secret answered once, listed
 * without it (names, scopes, ids, creation, last use), used, and revoked from its next request on; in the served
 * OpenAPI document; bad input is a 4xx naming what is wrong.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, tokenFor, type TestService } from '../helpers/service.ts'

const ADMIN = 'tokens-test-admin-secret'
const t = suite<{ svc: TestService }>('tokens over HTTP')
t.before(async (ctx) => { ctx.svc = await startService({ authEnabled: true, adminToken: ADMIN }) })
t.after(async (ctx) => { await ctx.svc.close() })

const as = (token: string) => ({ authorization: `Bearer ${token}` })

t('POST /tokens answers the secret once and an id; GET lists it without the secret; DELETE revokes it at once', async ({ svc }) => {
  const made = await svc.call('POST', '/tokens', { name: 'ci-bot', scope: 'write' }, as(ADMIN))
  assert.is(made.status, 200, JSON.stringify(made.body))
  const { token, id, name, scope, created, lastUsed, expires } = made.body.value
  assert.match(token, /^svc_/)
  assert.match(id, /^[0-9a-f]{12}$/)
  assert.equal([name, scope, lastUsed, expires], ['ci-bot', 'write', null, null])
  assert.ok(Math.abs(Date.parse(created) - Date.now()) < 60_000)

  const before = await svc.call('GET', '/tokens', undefined, as(ADMIN))
  assert.is(before.status, 200)
  const listed = before.body.value.tokens.find((x: { id: string }) => x.id === id)
  assert.equal(listed, { id, name: 'ci-bot', scope: 'write', created, expires: null, lastUsed: null })
  assert.not.ok(JSON.stringify(before.body).includes(token), 'the secret is never listed')

  // used: it writes, and the list shows when
  const proposal = { entityType: 'corpuser', entityUrn: 'urn:svc:corpuser:made-by-ci', changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } }
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', { proposal }, as(token))).status, 200)
  const after = (await svc.call('GET', '/tokens', undefined, as(ADMIN))).body.value.tokens.find((x: { id: string }) => x.id === id)
  assert.ok(after.lastUsed && Math.abs(Date.parse(after.lastUsed) - Date.now()) < 60_000, JSON.stringify(after))
  const actor = (await svc.call('GET', `/entitiesV2/${encodeURIComponent(proposal.entityUrn)}`, undefined, as(token))).body.aspects.status.created.actor
  assert.is(actor, 'urn:svc:corpuser:ci-bot')

  const revoked = await svc.call('DELETE', `/tokens/${id}`, undefined, as(ADMIN))
  assert.is(revoked.status, 200)
  assert.equal(revoked.body.value, { id, revoked: true })
  const refused = await svc.call('GET', `/entitiesV2/${encodeURIComponent(proposal.entityUrn)}`, undefined, as(token))
  assert.is(refused.status, 401)
  assert.match(refused.body.message, /unknown, revoked or expired/)
  assert.not.ok((await svc.call('GET', '/tokens', undefined, as(ADMIN))).body.value.tokens.some((x: { id: string }) => x.id === id))
  const again = await svc.call('DELETE', `/tokens/${id}`, undefined, as(ADMIN))
  assert.is(again.status, 404)
  assert.is(again.body.code, 'TOKEN_NOT_FOUND')
})

t('a token made with expiresInDays says when it expires; an admin token made over HTTP can manage tokens', async ({ svc }) => {
  const made = await svc.call('POST', '/tokens', { name: 'ops', scope: 'admin', expiresInDays: 30 }, as(ADMIN))
  assert.is(made.status, 200)
  const days = (Date.parse(made.body.value.expires) - Date.now()) / 86_400_000
  assert.ok(days > 29.9 && days <= 30, String(days))
  assert.is((await svc.call('GET', '/tokens', undefined, as(made.body.value.token))).status, 200)
})

t('only the admin scope manages tokens; no token: 401', async ({ svc }) => {
  const write = await tokenFor(svc, 'write')
  for (const [method, path, body] of [['POST', '/tokens', { name: 'x', scope: 'read' }], ['GET', '/tokens', undefined], ['DELETE', '/tokens/abc', undefined]] as const) {
    assert.is((await svc.call(method, path, body)).status, 401, `${method} ${path}`)
    const denied = await svc.call(method, path, body, as(write))
    assert.is(denied.status, 403, `${method} ${path}`)
    assert.is(denied.body.code, 'FORBIDDEN')
  }
})

t('bad bodies and ids are 4xx naming the problem; nothing is made', async ({ svc }) => {
  const count = async () => (await svc.call('GET', '/tokens', undefined, as(ADMIN))).body.value.tokens.length
  const before = await count()
  const cases: [unknown, string][] = [
    [{ name: 'x', scope: 'root' }, '/scope'], [{ scope: 'read' }, 'name'], [{ name: '', scope: 'read' }, '/name'],
    [{ name: 'has space', scope: 'read' }, '/name'], [{ name: 'x', scope: 'read', expiresInDays: 0 }, '/expiresInDays'],
    [{ name: 'x', scope: 'read', extra: 1 }, 'extra'], [[], ''],
  ]
  for (const [body, path] of cases) {
    const res = await svc.call('POST', '/tokens', body, as(ADMIN))
    assert.is(res.status, 400, JSON.stringify(body))
    assert.is(res.body.code, 'INVALID_REQUEST')
    assert.ok(res.body.details.some((d: { path: string; message: string }) => `${d.path} ${d.message}`.includes(path.replace(/^\//, ''))), `${JSON.stringify(body)}: ${JSON.stringify(res.body.details)}`)
  }
  assert.is((await svc.call('POST', '/tokens', '{"name":', as(ADMIN))).status, 400)
  assert.is(await count(), before)
  const unknown = await svc.call('DELETE', '/tokens/000000000000', undefined, as(ADMIN))
  assert.is(unknown.status, 404)
  assert.match(unknown.body.message, /no token has the id "000000000000"/)
})

t('the served OpenAPI document has the token routes, admin only', async ({ svc }) => {
  const doc = (await svc.call('GET', '/svc/openapi.json')).body
  assert.ok(doc.paths['/tokens'].post.requestBody)
  assert.ok(doc.paths['/tokens'].get)
  const del = doc.paths['/tokens/{id}'].delete
  assert.equal(del.parameters.map((p: { name: string; in: string }) => [p.name, p.in]), [['id', 'path']])
  for (const op of [doc.paths['/tokens'].post, doc.paths['/tokens'].get, del]) assert.equal(op.security, [{ bearerAuth: [] }])
})

t.run()
