/** Upstream's OpenAPI v3 entity routes, with upstream's request shapes (EntityController / GenericEntitiesController). */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService }>('openapi v3 entities')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const enc = encodeURIComponent
const V3 = '/openapi/v3/entity'

t('POST entity list (async=false) answers the written entities; GET reads them back', async ({ svc }) => {
  const body = [{ urn: ds('orders'), status: { value: { removed: false } }, datasetProperties: { value: { name: 'orders', description: 'all orders' } } }]
  const res = await svc.call('POST', `${V3}/dataset?async=false`, body)
  assert.is(res.status, 200)
  assert.equal(res.body, [{ urn: ds('orders'), status: { value: { removed: false } }, datasetProperties: { value: { name: 'orders', description: 'all orders', customProperties: {}, tags: [] } } }].map((e) => ({ ...e, datasetProperties: res.body[0].datasetProperties })))
  assert.ok(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/.test(res.headers.get('traceparent') ?? ''))
  const read = await svc.call('GET', `${V3}/dataset/${enc(ds('orders'))}`)
  assert.is(read.status, 200)
  assert.is(read.body.urn, ds('orders'))
  assert.equal(read.body.status, { value: { removed: false } })
  assert.is(read.body.datasetProperties.value.description, 'all orders')
  assert.ok(read.body.datasetKey, 'the key aspect is part of the entity')
  const some = await svc.call('GET', `${V3}/dataset/${enc(ds('orders'))}?aspects=status&systemMetadata=true`)
  assert.equal(Object.keys(some.body).sort(), ['status', 'urn'])
  assert.is(some.body.status.systemMetadata.version, '1')
  assert.ok(some.body.status.auditStamp.time > 0)
})

t('POST entity list defaults to async: 202 with the entities, applied soon after', async ({ svc }) => {
  const res = await svc.call('POST', `${V3}/dataset`, [{ urn: ds('async1'), status: { value: { removed: false } } }])
  assert.is(res.status, 202)
  assert.equal(res.body, [{ urn: ds('async1'), status: { value: { removed: false } } }])
  for (let i = 0; i < 100; i++) {
    if ((await svc.call('HEAD', `${V3}/dataset/${enc(ds('async1'))}`)).status === 204) return
    await new Promise((r) => setTimeout(r, 50))
  }
  assert.unreachable('the async write was never applied')
})

t('per-aspect GET, POST, HEAD, versions and DELETE', async ({ svc }) => {
  const urn = enc(ds('aspects'))
  const created = await svc.call('POST', `${V3}/dataset/${urn}/globalTags`, { value: { tags: [{ tag: 'urn:svc:tag:pii' }] } })
  assert.is(created.status, 200)
  assert.equal(created.body, { urn: ds('aspects'), globalTags: { value: { tags: [{ tag: 'urn:svc:tag:pii' }] } } })
  await svc.call('POST', `${V3}/dataset/${urn}/globalTags`, { value: { tags: [{ tag: 'urn:svc:tag:gold' }] } })
  assert.equal((await svc.call('GET', `${V3}/dataset/${urn}/globalTags`)).body, { value: { tags: [{ tag: 'urn:svc:tag:gold' }] } })
  assert.equal((await svc.call('GET', `${V3}/dataset/${urn}/globalTags?version=1`)).body, { value: { tags: [{ tag: 'urn:svc:tag:pii' }] } })
  assert.is((await svc.call('GET', `${V3}/dataset/${urn}/globalTags?version=9`)).status, 404)
  assert.is((await svc.call('HEAD', `${V3}/dataset/${urn}/globalTags`)).status, 204)
  assert.is((await svc.call('HEAD', `${V3}/dataset/${urn}/ownership`)).status, 404)
  assert.is((await svc.call('GET', `${V3}/dataset/${urn}/ownership`)).status, 404)
  const refused = await svc.call('POST', `${V3}/dataset/${urn}/globalTags?createIfNotExists=true`, { value: { tags: [] } })
  assert.is(refused.status, 412)
  assert.is((await svc.call('DELETE', `${V3}/dataset/${urn}/globalTags`)).status, 200)
  assert.is((await svc.call('HEAD', `${V3}/dataset/${urn}/globalTags`)).status, 404)
  assert.is((await svc.call('HEAD', `${V3}/dataset/${urn}`)).status, 204)
})

t('a urn holding slashes, and the aspect segment read case-insensitively', async ({ svc }) => {
  const urn = ds('bucket/path/file')
  await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: false } } }])
  assert.is((await svc.call('GET', `${V3}/dataset/${enc(urn)}`)).body.urn, urn)
  assert.equal((await svc.call('GET', `${V3}/dataset/${urn}/Status`)).body, { value: { removed: false } })
  assert.equal((await svc.call('GET', `${V3}/dataset/${urn}`)).body.urn, urn)
})

t('PATCH: entity list with {"value": {"patch": [...]}} and one aspect with upstream\'s GenericJsonPatch body', async ({ svc }) => {
  const urn = ds('patched')
  const res = await svc.call('PATCH', `${V3}/dataset?async=false`, [{ urn, globalTags: { value: { patch: [{ op: 'add', path: '/tags/urn:svc:tag:a', value: { tag: 'urn:svc:tag:a' } }] } } }], { 'content-type': 'application/json-patch+json' })
  assert.is(res.status, 200)
  assert.equal(res.body[0].globalTags.value.patch[0].op, 'add')
  const one = await svc.call('PATCH', `${V3}/dataset/${enc(urn)}/globalTags`, { patch: [{ op: 'add', path: '/tags/urn:svc:tag:b', value: { tag: 'urn:svc:tag:b' } }] })
  assert.is(one.status, 200)
  assert.equal(one.body, { urn, globalTags: { value: { tags: [{ tag: 'urn:svc:tag:a' }, { tag: 'urn:svc:tag:b' }] } } })
  const asyncPatch = await svc.call('PATCH', `${V3}/dataset`, [{ urn, globalTags: { value: { patch: [{ op: 'remove', path: '/tags/urn:svc:tag:a' }] } } }])
  assert.is(asyncPatch.status, 202)
  const missing = await svc.call('PATCH', `${V3}/dataset?async=false`, [{ urn, globalTags: { value: { tags: [] } } }])
  assert.is(missing.status, 400)
  assert.match(missing.body.message, /patch/)
})

t('conditional writes: If-Version-Match in an aspect\'s headers', async ({ svc }) => {
  const urn = ds('conditional')
  await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: false } } }])
  const stale = await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: true }, headers: { 'If-Version-Match': '7' } } }])
  assert.is(stale.status, 412)
  const ok = await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: false }, headers: { 'If-Version-Match': '1' } } }])
  assert.is(ok.status, 200)
})

t('batchGet: latest by default, versions pinned with If-Version-Match; unknown urns left out', async ({ svc }) => {
  const urn = ds('batch')
  await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, globalTags: { value: { tags: [{ tag: 'urn:svc:tag:one' }] } } }])
  await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, globalTags: { value: { tags: [{ tag: 'urn:svc:tag:two' }] } } }])
  const res = await svc.call('POST', `${V3}/dataset/batchGet`, [
    { urn, globalTags: { headers: { 'If-Version-Match': '1' } } },
    { urn: ds('nobody') },
  ])
  assert.is(res.status, 200)
  assert.equal(res.body, [{ urn, globalTags: { value: { tags: [{ tag: 'urn:svc:tag:one' }] } } }])
  const latest = await svc.call('POST', `${V3}/dataset/batchGet?systemMetadata=true`, [{ urn, globalTags: {} }])
  assert.equal(latest.body[0].globalTags.value, { tags: [{ tag: 'urn:svc:tag:two' }] })
  assert.is(latest.body[0].globalTags.systemMetadata.version, '2')
})

t('generic: several entity types in one call (POST, PATCH, batchGet)', async ({ svc }) => {
  const body = { dataset: [{ urn: ds('generic'), status: { value: { removed: false } } }], tag: [{ urn: 'urn:svc:tag:generic', tagProperties: { value: { name: 'generic' } } }] }
  const res = await svc.call('POST', `${V3}/generic?async=false`, body)
  assert.is(res.status, 200)
  assert.equal(Object.keys(res.body), ['dataset', 'tag'])
  assert.is(res.body.tag[0].urn, 'urn:svc:tag:generic')
  const patched = await svc.call('PATCH', `${V3}/generic?async=false`, { tag: [{ urn: 'urn:svc:tag:generic', tagProperties: { value: { patch: [{ op: 'add', path: '/description', value: 'patched' }] } } }] })
  assert.is(patched.status, 200)
  const read = await svc.call('POST', `${V3}/generic/batchGet`, { dataset: [{ urn: ds('generic'), status: {} }], tag: [{ urn: 'urn:svc:tag:generic', tagProperties: {} }] })
  assert.equal(read.body, { dataset: [{ urn: ds('generic'), status: { value: { removed: false } } }], tag: [{ urn: 'urn:svc:tag:generic', tagProperties: { value: { name: 'generic', description: 'patched' } } }] })
  assert.is((await svc.call('POST', `${V3}/generic`, { dataset: {} })).status, 400)
})

t('DELETE entity: aspects= deletes those, clear=true keeps the key, plain deletes the entity', async ({ svc }) => {
  const urn = ds('deleted')
  await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: false } }, globalTags: { value: { tags: [] } }, ownership: { value: { owners: [{ owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' }] } } }])
  assert.is((await svc.call('DELETE', `${V3}/dataset/${enc(urn)}?aspects=globalTags`)).status, 200)
  const left = (await svc.call('GET', `${V3}/dataset/${enc(urn)}`)).body
  assert.ok(left.ownership && left.status && left.datasetKey && !left.globalTags)
  assert.is((await svc.call('DELETE', `${V3}/dataset/${enc(urn)}?clear=true`)).status, 200)
  assert.is((await svc.call('HEAD', `${V3}/dataset/${enc(urn)}/ownership`)).status, 404)
  assert.is((await svc.call('DELETE', `${V3}/dataset/${enc(urn)}`)).status, 200)
  assert.is((await svc.call('HEAD', `${V3}/dataset/${enc(urn)}`)).status, 404)
  const gone = await svc.call('GET', `${V3}/dataset/${enc(urn)}`)
  assert.is(gone.status, 404)
  assert.is(gone.headers.get('not-found-reason'), 'ENTITY')
})

t('soft-deleted entities: HEAD says 404 unless includeSoftDelete=true', async ({ svc }) => {
  const urn = enc(ds('soft'))
  await svc.call('POST', `${V3}/dataset/${urn}/status`, { value: { removed: true } })
  assert.is((await svc.call('HEAD', `${V3}/dataset/${urn}`)).status, 404)
  assert.is((await svc.call('HEAD', `${V3}/dataset/${urn}?includeSoftDelete=true`)).status, 204)
})

t('bad input: clear 4xx naming the problem, nothing written', async ({ svc }) => {
  const urn = ds('bad')
  const cases: [string, string, unknown, number, RegExp][] = [
    ['POST', `${V3}/dataset?async=false`, { urn }, 400, /array/],
    ['POST', `${V3}/dataset?async=false`, [{ status: { value: {} } }], 400, /urn/],
    ['POST', `${V3}/dataset?async=false`, [{ urn, status: { removed: false } }], 400, /value/],
    ['POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: 'no' } } }], 400, /status/],
    ['POST', `${V3}/dataset?async=false`, [{ urn, noSuchAspect: { value: {} } }], 400, /noSuchAspect/],
    ['POST', `${V3}/chart?async=false`, [{ urn, status: { value: { removed: false } } }], 400, /chart|dataset/],
    ['POST', `${V3}/nosuchtype?async=false`, [{ urn, status: { value: { removed: false } } }], 400, /nosuchtype/],
    ['POST', `${V3}/dataset?async=maybe`, [{ urn, status: { value: { removed: false } } }], 400, /async/],
    ['GET', `${V3}/chart/${enc(urn)}`, undefined, 400, /dataset/],
    ['GET', `${V3}/dataset/urn:svc:dataset:broken`, undefined, 400, /urn/],
    ['POST', `${V3}/dataset/batchGet`, { urn }, 400, /array/],
  ]
  for (const [method, path, body, status, message] of cases) {
    const res = await svc.call(method, path, body)
    assert.is(res.status, status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`)
    assert.match(res.body.message, message)
  }
  assert.is((await svc.call('HEAD', `${V3}/dataset/${enc(urn)}`)).status, 404)
})

t('the 1.x entity types: forms, business attributes, schema field documentation, searchable by name', async ({ svc }) => {
  const form = 'urn:svc:form:quarterly-review'
  const attr = 'urn:svc:businessAttribute:customer-id'
  const field = `urn:svc:schemaField:(${ds('orders')},customer_id)`
  const res = await svc.call('POST', `${V3}/generic?async=false`, {
    form: [{ urn: form, formInfo: { value: { name: 'Quarterly review', type: 'COMPLETION', prompts: [{ id: 'p1', title: 'Owner?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: 'urn:svc:structuredProperty:owner' }, required: true }], actors: { owners: true } } } }],
    businessAttribute: [{ urn: attr, businessAttributeInfo: { value: { fieldPath: 'customer_id', name: 'Customer id', description: 'who bought' } } }],
    schemaField: [{ urn: field, documentation: { value: { documentations: [{ documentation: 'the buyer' }] } }, businessAttributes: { value: { businessAttribute: { businessAttributeUrn: attr } } } }],
  })
  assert.is(res.status, 200, JSON.stringify(res.body))
  assert.equal((await svc.call('GET', `${V3}/form/${enc(form)}/formInfo`)).body.value.prompts[0].id, 'p1')
  const found = await svc.call('GET', `${V3}/businessAttribute?query=customer`)
  assert.equal(found.body.entities.map((e: { urn: string }) => e.urn), [attr])
  const rel = await svc.call('GET', `/openapi/v3/relationship/businessAttribute/${enc(attr)}?direction=INCOMING`)
  assert.equal(rel.body.results.map((r: any) => [r.relationshipType, r.source.urn]), [['BusinessAttributeOf', field]])
})

t.run()
