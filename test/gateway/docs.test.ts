/**
 * Route 12, `GET /svc/docs`: the OpenAPI document generated from the routes, and the Swagger UI page driven in
 * Debian's Chromium (headless, offline) down to a search executed from the page.
 */
import { Type } from 'typebox'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openApiDocument, openApiPath } from '../../gateway/docs/openapi.ts'
import type { GatewayDeps } from '../../gateway/deps.ts'
import type { RouteSpec } from '../../gateway/http/route.ts'
import { browserAvailable, launchChromium, screenshot } from '../helpers/browser.ts'
import { startService, type TestService } from '../helpers/service.ts'

const API_PREFIXES = ['/openapi', '/aspects', '/entities', '/entitiesV2', '/relationships', '/lineage', '/operations', '/config', '/writes', '/health', '/ready', '/metrics', '/registry', '/versions', '/changes', '/tokens']

const t = suite<{ svc: TestService }>('docs: OpenAPI document')
t.before(async (ctx) => { ctx.svc = await startService({}, { workers: false }) })
t.after(async (ctx) => { await ctx.svc.close() })

const handler = async () => ({ body: {} })
const fake: RouteSpec[] = [
  { method: 'POST', path: '/things', action: 'find', scope: 'read', body: true, summary: 'find',
    requestSchema: Type.Object({ relationship: Type.String({ searchable: { field: 'x' }, urnOf: 'dataset' }) }), example: { request: { relationship: 'a' } }, handler },
  { method: 'POST', path: '/things', action: 'make', scope: 'admin', body: true, summary: 'make', handler },
  { method: 'GET', path: '/things/*', scope: 'read', summary: 'one', responseSchema: Type.Object({ urn: Type.String() }), handler },
]

t('pure: actions become path keys, wildcards {urn}, custom keywords go', () => {
  const doc = openApiDocument(fake, { title: 'x', version: '1' }) as any
  assert.is(doc.openapi, '3.1.0')
  assert.equal(Object.keys(doc.paths), ['/things?action=find', '/things?action=make', '/things/{urn}'])
  const find = doc.paths['/things?action=find'].post
  assert.equal(find.requestBody.content['application/json'].schema, { type: 'object', required: ['relationship'], properties: { relationship: { type: 'string' } } })
  assert.equal(find.requestBody.content['application/json'].example, { relationship: 'a' })
  assert.is(find.responses.default.content['application/json'].schema.$ref, '#/components/schemas/Error')
  assert.equal(doc.paths['/things?action=make'].post.security, [{ bearerAuth: [] }])
  const one = doc.paths['/things/{urn}'].get
  assert.equal(one.parameters.map((p: any) => [p.name, p.in, p.required]), [['urn', 'path', true]])
  assert.equal(one.responses[200].content['application/json'].schema.properties.urn, { type: 'string' })
  assert.is(doc.security, undefined, 'no global security: a lock shows only where a token is needed')
  assert.equal(find.security, [], 'read routes need no token while authentication is off')
  const withAuth = openApiDocument(fake, { title: 'x', version: '1' }, { authEnabled: true }) as any
  assert.equal(withAuth.paths['/things?action=find'].post.security, [{ bearerAuth: [] }])
  assert.equal(withAuth.paths['/things?action=make'].post.security, [{ bearerAuth: [] }])
  assert.equal(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token>' })
  assert.equal(doc.components.schemas.Error.required, ['status', 'code', 'message', 'details'])
  assert.throws(() => openApiDocument([fake[0]!, fake[0]!], { title: 'x', version: '1' }), /two routes/)
})

t('GET /svc/openapi.json documents every API route with its schemas', async ({ svc }) => {
  const res = await svc.call('GET', '/svc/openapi.json')
  assert.is(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /application\/json/)
  const doc = res.body
  assert.is(doc.openapi, '3.1.0')
  const ids = new Set<string>()
  for (const [key, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    assert.ok(API_PREFIXES.some((p) => key === p || key.startsWith(`${p}/`) || key.startsWith(`${p}?`)), `unexpected path ${key}`)
    for (const op of Object.values(item)) {
      assert.not.ok(ids.has(op.operationId), `duplicate operationId ${op.operationId}`)
      ids.add(op.operationId)
      assert.ok(op.summary && op.responses[200] && op.responses.default)
    }
  }
  for (const path of ['/entities?action=search', '/entities?action=browse', '/entities?action=autocomplete', '/entities?action=ingest', '/aspects?action=ingestProposal']) {
    const body = doc.paths[path]?.post?.requestBody?.content?.['application/json']
    assert.ok(body?.schema?.type === 'object', `${path}: request schema`)
  }
  assert.equal(doc.paths['/entities?action=search'].post.requestBody.content['application/json'].schema.required, ['input', 'entity'])
  assert.ok(doc.paths['/entitiesV2/{urn}'].get.parameters.some((p: any) => p.name === 'urn' && p.in === 'path'))
  assert.ok(doc.paths['/entitiesV2'].get && doc.paths['/entities/{urn}'].get && doc.paths['/aspects/{urn}'].get)
  assert.not.ok(JSON.stringify(doc).includes('"searchable"'))
})

t('every mounted API route appears as a path and method', async ({ svc }) => {
  const doc = (await svc.call('GET', '/svc/openapi.json')).body
  const { allRoutes } = await import('../../gateway/server.ts')
  // The documentation's and the UI's own pages and files (`/svc/...`, `/`) are not API routes.
  const api = allRoutes({ model: svc.gateway.model } as GatewayDeps).filter((r) => !r.path.startsWith('/svc/') && r.path !== '/')
  assert.ok(api.length >= 10)
  for (const route of api) assert.ok(doc.paths[openApiPath(route)]?.[route.method.toLowerCase()], `${route.method} ${openApiPath(route)} missing`)
  assert.is(Object.values(doc.paths).reduce((n: number, item) => n + Object.keys(item as object).length, 0), api.length)
})

t('the page and the Swagger UI files are served by the service', async ({ svc }) => {
  const page = await fetch(`${svc.url}/svc/docs`)
  assert.is(page.status, 200)
  assert.match(page.headers.get('content-type') ?? '', /text\/html/)
  const html = await page.text()
  assert.match(html, /url: '\/svc\/openapi.json'/)
  assert.not.match(html, /https?:\/\//)
  for (const [file, type] of [['swagger-ui.css', /text\/css/], ['swagger-ui-bundle.js', /javascript/], ['swagger-ui-standalone-preset.js', /javascript/], ['favicon-32x32.png', /image\/png/]] as const) {
    const res = await fetch(`${svc.url}/svc/docs/assets/${file}`)
    assert.is(res.status, 200, file)
    assert.match(res.headers.get('content-type') ?? '', type)
    assert.ok((await res.arrayBuffer()).byteLength > 100, file)
  }
})

t.run()

const b = suite<{ svc: TestService }>('docs: Swagger UI in Chromium')
const datasets = ['docs_orders', 'docs_customers'].map((name) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`)
b.before(async (ctx) => {
  ctx.svc = await startService()
  for (const urn of datasets) {
    const snapshot = { urn, aspects: [{ 'com.svc.dataset.DatasetProperties': { name: urn.split(',')[1], description: 'documented through the docs page' } }] }
    const res = await ctx.svc.call('POST', '/entities?action=ingest', { entity: { value: { 'com.svc.metadata.snapshot.DatasetSnapshot': snapshot } } })
    assert.is(res.status, 200)
  }
})
b.after(async (ctx) => { await ctx.svc?.close() })

const browserTest = browserAvailable('docs browser test') ? b : b.skip

browserTest('the page lists the routes and executes a search', async ({ svc }) => {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } })
    const outside: string[] = []
    page.on('request', (req) => { if (!req.url().startsWith(svc.url)) outside.push(req.url()) })
    await page.goto(`${svc.url}/svc/docs`)
    const search = page.locator('.opblock-summary-path[data-path="/entities?action=search"]')
    await search.waitFor({ state: 'visible', timeout: 30_000 })
    await page.locator('.opblock-summary-path[data-path="/entitiesV2/{urn}"]').waitFor({ state: 'visible' })
    const text = (await page.locator('#swagger-ui').innerText()).replace(/\u200b/g, '')
    for (const path of ['/entities?action=search', '/entitiesV2/{urn}', '/aspects?action=ingestProposal']) assert.ok(text.includes(path), `${path} listed`)

    await search.click()
    const op = page.locator('.opblock', { has: search })
    const tryIt = op.locator('button.try-out__btn', { hasText: 'Try it out' })
    if (await tryIt.isVisible()) await tryIt.click()
    await op.locator('textarea.body-param__text').fill('{"input":"*","entity":"dataset","start":0,"count":10}')
    await op.locator('button.execute').click()
    const status = op.locator('.live-responses-table .response .response-col_status')
    await status.waitFor({ state: 'visible', timeout: 30_000 })
    assert.is((await status.innerText()).trim(), '200')
    const body = await op.locator('.live-responses-table .response-col_description pre').first().innerText()
    for (const urn of datasets) assert.ok(body.includes(urn), `${urn} in the response panel`)
    assert.equal(outside, [], 'the page fetches nothing outside the service')

    // Authentication is off here: a lock only on the admin routes (which always need a token).
    assert.is(await page.locator('.opblock', { has: search }).locator('.authorization__btn').count(), 0, 'no lock on search')
    const admin = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/operations?action=restoreIndices"]') })
    assert.ok(await admin.locator('.authorization__btn').count() > 0, 'a lock on restoreIndices')

    await screenshot(page, 'docs.png')
  } finally {
    await browser.close()
  }
})

b.run()
