import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fixture } from '../helpers/fixtures.ts'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService }>('timeseries aspects')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

const profiles = fixture('demo-profiles.requests.json')
const urn = (profiles[0]!.body as any).proposal.entityUrn as string
const read = (svc: TestService, body: Record<string, unknown>) =>
  svc.call('POST', '/aspects?action=getTimeseriesAspectValues', { urn, entity: 'dataset', aspect: 'datasetProfile', ...body })
const times = (res: { body: any }) => res.body.value.values.map((v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).timestampMillis as number)

t('the demo profiles are accepted and read back newest first, serialized', async ({ svc }) => {
  for (const r of profiles) assert.is((await svc.call(r.method, r.path, r.body)).status, 200, r.name)
  const res = await read(svc, { startTimeMillis: 0, endTimeMillis: Date.now() })
  assert.is(res.status, 200)
  assert.is(res.body.value.limit, 10_000)
  assert.is(res.body.value.entityName, 'dataset')
  assert.is(res.body.value.aspectName, 'datasetProfile')
  const got = times(res)
  assert.is(got.length, profiles.length)
  assert.equal(got, [...got].sort((a, b) => b - a))
  assert.is(res.body.value.values[0].aspect.contentType, 'application/json')
})

t('bounds are inclusive; limit caps and is echoed', async ({ svc }) => {
  const all = times(await read(svc, { startTimeMillis: 0, endTimeMillis: Date.now() }))
  const [newest, second] = all as [number, number]
  assert.equal(times(await read(svc, { startTimeMillis: second, endTimeMillis: newest })), [newest, second])
  const limited = await read(svc, { startTimeMillis: 0, endTimeMillis: Date.now(), limit: 3 })
  assert.is(limited.body.value.values.length, 3)
  assert.is(limited.body.value.limit, 3)
})

t('the same timestamp replaces the earlier value; nothing is versioned', async ({ svc }) => {
  const t0 = 1_700_000_000_000
  const write = (rowCount: number) => svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProfile', aspect: { value: JSON.stringify({ timestampMillis: t0, rowCount }), contentType: 'application/json' } } })
  await write(1)
  await write(2)
  const res = await read(svc, { startTimeMillis: t0, endTimeMillis: t0 })
  assert.equal(res.body.value.values.map((v: any) => JSON.parse(v.aspect.value).rowCount), [2])
  assert.is((await svc.call('GET', `/aspects/${encodeURIComponent(urn)}?aspect=datasetProfile&version=0`)).status, 400)
})

t('the guide usage example reads back (example 28)', async ({ svc }) => {
  const examples = fixture('examples.json')
  const write = examples[0]!
  assert.is((await svc.call(write.method, write.path, write.body)).status, 200)
  const ex = examples.find((e) => e.name.startsWith('derived: getTimeseriesAspectValues datasetUsageStatistics'))!
  const res = await svc.call(ex.method, ex.path, ex.body)
  const shown = (ex.shownResponse as any).value
  assert.equal({ ...res.body.value, values: undefined }, { ...shown, values: undefined })
  assert.equal(res.body.value.values.map((v: any) => JSON.parse(v.aspect.value)), shown.values.map((v: any) => JSON.parse(v.aspect.value)))
})

t('errors: not a timeseries aspect, entity mismatch, bad bounds', async ({ svc }) => {
  assert.is((await read(svc, { aspect: 'ownership' })).status, 400)
  assert.is((await read(svc, { entity: 'chart' })).body.code, 'ENTITY_TYPE_MISMATCH')
  assert.is((await read(svc, { startTimeMillis: 'yesterday' })).body.code, 'INVALID_REQUEST')
  assert.is((await read(svc, { aspect: 'nope' })).body.code, 'UNKNOWN_ASPECT')
})

t.run()
