/**
 * Forward compatibility (UNKNOWN_ASPECTS): an aspect the registry does not know, of a known entity type, is refused
 * by default; with `store` it is stored, versioned, returned and logged, but never indexed.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ refusing: TestService; storing: TestService }>('unknown aspects')
t.before(async (ctx) => {
  ctx.refusing = await startService()
  ctx.storing = await startService({ unknownAspects: 'store' })
})
t.after(async (ctx) => {
  await ctx.refusing.close()
  await ctx.storing.close()
})

const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,future,PROD)'
const enc = encodeURIComponent
const propose = (svc: TestService, aspectName: string, value: unknown, entityUrn = urn) => svc.call('POST', '/aspects?action=ingestProposal', {
  proposal: { entityType: entityUrn.split(':')[2], entityUrn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } },
})

t('refused with 400 UNKNOWN_ASPECT by default', async ({ refusing }) => {
  const res = await propose(refusing, 'shinyNewAspect', { note: 'from a newer client' })
  assert.is(res.status, 400)
  assert.is(res.body.code, 'UNKNOWN_ASPECT')
})

t('with UNKNOWN_ASPECTS=store: stored as sent, versioned and returned', async ({ storing }) => {
  assert.is((await propose(storing, 'shinyNewAspect', { note: 'first', nested: { list: [1, { deep: true }] } })).status, 200)
  assert.is((await propose(storing, 'shinyNewAspect', { note: 'second' })).status, 200)
  const entity = (await storing.call('GET', `/entitiesV2/${enc(urn)}`)).body
  assert.equal(entity.aspects.shinyNewAspect.value, { note: 'second' })
  assert.ok(entity.aspects.datasetKey, 'the first write made the entity like any other')
  const limited = (await storing.call('GET', `/entitiesV2/${enc(urn)}?aspects=List(shinyNewAspect)`)).body
  assert.equal(Object.keys(limited.aspects).sort(), ['datasetKey', 'shinyNewAspect'])
  const older = (await storing.call('GET', `/aspects/${enc(urn)}?aspect=shinyNewAspect&version=1`)).body
  assert.equal(Object.values(older.aspect)[0], { note: 'first', nested: { list: [1, { deep: true }] } })
})

t('with UNKNOWN_ASPECTS=store: never indexed (search does not see its words)', async ({ storing }) => {
  assert.is((await propose(storing, 'anotherNewAspect', { description: 'zanzibarian' })).status, 200)
  const res = await storing.call('POST', '/entities?action=search', { input: 'zanzibarian', entity: 'dataset', start: 0, count: 10 })
  assert.equal(res.body.value.entities, [])
  const byName = await storing.call('POST', '/entities?action=search', { input: 'future', entity: 'dataset', start: 0, count: 10 })
  assert.ok(byName.body.value.entities.includes(urn), 'the entity itself is indexed from its modelled aspects')
})

t('with UNKNOWN_ASPECTS=store: still refused: a modelled aspect of another type, a malformed value or name', async ({ storing }) => {
  const wrongType = await propose(storing, 'chartInfo', { title: 'x', description: 'y', lastModified: {} })
  assert.is(wrongType.status, 400)
  assert.is(wrongType.body.code, 'UNKNOWN_ASPECT')
  assert.is((await propose(storing, 'listAspect', [1, 2])).status, 400)
  assert.is((await propose(storing, 'bad name!', {})).status, 400)
  assert.is((await propose(storing, 'futureThing', {}, 'urn:svc:nosuchtype:x')).body.code, 'UNKNOWN_ENTITY_TYPE')
})

t('with UNKNOWN_ASPECTS=store: a snapshot carrying an unknown record is accepted too', async ({ storing }) => {
  const chart = 'urn:svc:chart:(looker,future)'
  const res = await storing.call('POST', '/entities?action=ingest', { entity: { value: { 'com.svc.metadata.snapshot.ChartSnapshot': {
    urn: chart, aspects: [{ 'com.svc.common.Status': { removed: false } }, { 'com.svc.chart.ChartFutureThing': { level: 3 } }],
  } } } })
  assert.is(res.status, 200, JSON.stringify(res.body))
  assert.equal((await storing.call('GET', `/entitiesV2/${enc(chart)}`)).body.aspects.chartFutureThing.value, { level: 3 })
})

t.run()
