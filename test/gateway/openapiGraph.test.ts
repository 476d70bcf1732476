/**
 * Upstream's v3 relationship and lineage scrolls, v1 timeline and write tracing, and what /config and the served
 * OpenAPI document say about them.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService }>('openapi v3 relationships, lineage, timeline, tracing')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const enc = encodeURIComponent
const V3 = '/openapi/v3/entity'
const upstreams = (...names: string[]) => ({ upstreams: names.map((n) => ({ dataset: ds(n), type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:svc:corpuser:x' } })) })

t('relationships of an entity, both directions, paged by scrollId', async ({ svc }) => {
  await svc.call('POST', `${V3}/dataset?async=false`, [
    { urn: ds('child'), upstreamLineage: { value: upstreams('p1', 'p2', 'p3') }, ownership: { value: { owners: [{ owner: 'urn:svc:corpuser:ann', type: 'DATAOWNER' }] } } },
  ])
  const out = await svc.call('GET', `/openapi/v3/relationship/dataset/${enc(ds('child'))}?relationshipType=DownstreamOf&count=2`)
  assert.is(out.status, 200)
  assert.equal(out.body.results[0], { relationshipType: 'DownstreamOf', source: { urn: ds('child'), entityType: 'dataset' }, destination: { urn: ds('p1'), entityType: 'dataset' } })
  assert.is(out.body.results.length, 2)
  const rest = await svc.call('GET', `/openapi/v3/relationship/dataset/${enc(ds('child'))}?relationshipType=DownstreamOf&count=2&scrollId=${out.body.scrollId}`)
  assert.equal(rest.body.results.map((r: any) => r.destination.urn), [ds('p3')])
  assert.is(rest.body.scrollId, undefined)
  const all = await svc.call('GET', `/openapi/v3/relationship/dataset/${enc(ds('child'))}?count=10`)
  assert.equal(all.body.results.map((r: any) => r.relationshipType).sort(), ['DownstreamOf', 'DownstreamOf', 'DownstreamOf', 'OwnedBy'])
  const incoming = await svc.call('GET', `/openapi/v3/relationship/dataset/${enc(ds('p2'))}?direction=INCOMING`)
  assert.equal(incoming.body.results, [{ relationshipType: 'DownstreamOf', source: { urn: ds('child'), entityType: 'dataset' }, destination: { urn: ds('p2'), entityType: 'dataset' } }])
  assert.is((await svc.call('GET', `/openapi/v3/relationship/dataset/${enc(ds('p2'))}?direction=SIDEWAYS`)).status, 400)
  assert.is((await svc.call('GET', `/openapi/v3/relationship/dataset/${enc(ds('p2'))}?relationshipType=Nope`)).status, 400)
})

t('lineage scroll from anchors: UPSTREAM, DOWNSTREAM and raw directions', async ({ svc }) => {
  const up = await svc.call('POST', '/openapi/v3/lineage/scroll?direction=UPSTREAM&count=10', { urns: [ds('child')] })
  assert.is(up.status, 200)
  assert.equal(up.body.results.map((r: any) => r.destination.urn), [ds('p1'), ds('p2'), ds('p3')])
  const down = await svc.call('POST', '/openapi/v3/lineage/scroll?direction=DOWNSTREAM', { urns: [ds('p1')] })
  assert.equal(down.body.results.map((r: any) => r.source.urn), [ds('child')])
  assert.is((await svc.call('POST', '/openapi/v3/lineage/scroll', {})).status, 400)
})

t('timeline: tags, ownership and schema changes grouped per moment, with semantic versions', async ({ svc }) => {
  const urn = ds('timeline')
  const schema = (...fields: string[]) => ({ schemaName: 't', platform: 'urn:svc:dataPlatform:hive', version: 0, hash: '', platformSchema: { 'com.svc.schema.OtherSchema': { rawSchema: '' } }, fields: fields.map((f) => ({ fieldPath: f, nativeDataType: 'string', type: { type: { 'com.svc.schema.StringType': {} } } })) })
  const steps = [
    { schemaMetadata: { value: schema('a', 'b') } },
    { globalTags: { value: { tags: [{ tag: 'urn:svc:tag:pii' }] } } },
    { schemaMetadata: { value: schema('a', 'c') } },
  ]
  for (const step of steps) {
    const res = await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, ...step }])
    assert.is(res.status, 200, JSON.stringify(res.body))
    await new Promise((r) => setTimeout(r, 5))
  }
  const res = await svc.call('GET', `/openapi/v1/timeline/${enc(urn)}?categories=TECHNICAL_SCHEMA&categories=TAG`)
  assert.is(res.status, 200, JSON.stringify(res.body))
  assert.is(res.body.length, 3)
  assert.equal(res.body.map((t: any) => t.semVer), ['0.1.0-computed', '0.2.0-computed', '1.0.0-computed'])
  assert.equal(res.body[2].changeEvents.map((e: any) => [e.category, e.operation, e.modifier]), [['TECHNICAL_SCHEMA', 'ADD', 'c'], ['TECHNICAL_SCHEMA', 'REMOVE', 'b']])
  assert.is(res.body[1].changeEvents[0].modifier, 'urn:svc:tag:pii')
  const onlyTags = await svc.call('GET', `/openapi/timeline/v1/${enc(urn)}?categories=TAG`)
  assert.is(onlyTags.body.length, 1)
  assert.is((await svc.call('GET', `/openapi/v1/timeline/${enc(urn)}`)).status, 400)
  assert.is((await svc.call('GET', `/openapi/v1/timeline/${enc(urn)}?categories=NOPE`)).status, 400)
})

t('write tracing: the traceparent a write answered names where its aspects are', async ({ svc }) => {
  const urn = ds('traced')
  const traceId = '0af7651916cd43dd8448eb211c80319c'
  const first = await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: false } } }], { traceparent: `00-${traceId}-b7ad6b7169203331-01` })
  assert.ok(first.headers.get('traceparent')?.includes(traceId))
  const trace = (id: string, body: unknown, query = '?onlyIncludeErrors=false') => svc.call('POST', `/openapi/v1/trace/write/${id}${query}`, body)
  const active = await trace(traceId, { [urn]: ['status'] })
  assert.equal(active.body, { [urn]: { status: { success: true, primaryStorage: { writeStatus: 'ACTIVE_STATE' }, searchStorage: { writeStatus: 'ACTIVE_STATE' } } } })
  assert.equal((await trace(traceId, { [urn]: ['status'] }, '')).body, {}, 'only errors by default, as upstream')
  const second = await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: true } } }])
  const secondId = second.headers.get('traceparent')!.split('-')[1]!
  assert.is((await trace(traceId, { [urn]: ['status'] })).body[urn].status.primaryStorage.writeStatus, 'HISTORIC_STATE')
  assert.is((await trace(second.headers.get('traceparent')!, { [urn]: ['status'] })).body[urn].status.primaryStorage.writeStatus, 'ACTIVE_STATE')
  assert.is((await trace('1'.repeat(32), { [urn]: ['status'] })).body[urn].status.primaryStorage.writeStatus, 'NO_OP')
  const viaMetadata = await svc.call('POST', `${V3}/dataset?async=false`, [{ urn, status: { value: { removed: false }, systemMetadata: { properties: { telemetryTraceId: '2'.repeat(32) } } } }])
  assert.is(viaMetadata.status, 200)
  assert.is((await trace('2'.repeat(32), { [urn]: ['status'] })).body[urn].status.primaryStorage.writeStatus, 'ACTIVE_STATE')
  const asyncWrite = await svc.call('POST', `${V3}/dataset`, [{ urn: ds('traced-async'), status: { value: { removed: false } } }])
  const asyncId = asyncWrite.headers.get('traceparent')!.split('-')[1]!
  for (let i = 0; i < 100; i++) {
    const state = (await trace(asyncId, { [ds('traced-async')]: ['status'] })).body[ds('traced-async')].status.primaryStorage.writeStatus
    if (state === 'ACTIVE_STATE') break
    assert.ok(['PENDING', 'NO_OP'].includes(state), state)
    await new Promise((r) => setTimeout(r, 50))
  }
  assert.ok(secondId)
  assert.is((await trace('nothex', { [urn]: ['status'] })).status, 400)
})

t('/config advertises the OpenAPI SDK; the served document describes the v3 routes', async ({ svc }) => {
  const config = (await svc.call('GET', '/config')).body
  assert.is(config.versions['acryldata/datahub'].version, 'v1.7.0')
  assert.is(config.datahub.serverEnv, 'core')
  assert.equal(config.features, { OPEN_API_SDK: true, API_TRACING: true })
  const doc = (await svc.call('GET', '/svc/openapi.json')).body
  for (const path of ['/openapi/v3/entity/{entityName}', '/openapi/v3/entity/{entityName}/{urn}', '/openapi/v3/entity/{entityName}/{urn}/{aspectName}', '/openapi/v3/entity/scroll', '/openapi/v3/entity/generic', '/openapi/v3/relationship/{entityName}/{urn}', '/openapi/v3/lineage/scroll', '/openapi/v1/trace/write/{traceId}']) {
    assert.ok(doc.paths[path], `documents ${path}`)
  }
  assert.ok(doc.paths['/openapi/v3/entity/{entityName}/{urn}'].head)
  assert.ok(doc.paths['/openapi/v3/entity/{entityName}/{urn}'].delete)
  assert.ok(doc.paths['/openapi/v3/entity/{entityName}'].patch)
})

t.run()
