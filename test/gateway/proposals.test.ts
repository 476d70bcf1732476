import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService } from '../helpers/service.ts'
import { v2, versioned } from '../helpers/fixtures.ts'

const t = suite<{ svc: TestService }>('ingestProposal')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,proposals_1,PROD)'
const proposal = (aspectName: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' }, ...extra },
})
const PROPOSE = '/aspects?action=ingestProposal'

t('UPSERT answers {value: urn} and is readable at once', async ({ svc }) => {
  const res = await svc.call('POST', PROPOSE, proposal('ownership', { owners: [{ owner: 'urn:svc:corpuser:fbar', type: 'DATAOWNER' }] }), { 'X-Svc-Protocol-Version': '2.0.0' })
  assert.is(res.status, 200)
  assert.equal(res.body, { value: urn })
  const read = await svc.call('GET', v2(urn))
  assert.is(read.status, 200)
  assert.equal(read.body.aspects.ownership.value, { owners: [{ owner: 'urn:svc:corpuser:fbar', type: 'DATAOWNER' }] })
  assert.equal(read.body.aspects.datasetKey.value, { platform: 'urn:svc:dataPlatform:hive', name: 'proposals_1', origin: 'PROD' })
  assert.equal(read.body.aspects.browsePaths.value, { paths: ['/prod/hive/proposals_1'] })
  assert.is(read.body.entityName, 'dataset')
})

t('versions: 0 is the latest, 1 the oldest; identical re-writes add none', async ({ svc }) => {
  for (const removed of [false, true, true, false]) {
    assert.is((await svc.call('POST', PROPOSE, proposal('status', { removed }))).status, 200)
  }
  assert.equal((await svc.call('GET', versioned(urn, 'status', 0))).body, { version: 0, aspect: { 'com.svc.common.Status': { removed: false } } })
  assert.equal((await svc.call('GET', versioned(urn, 'status', 1))).body.aspect, { 'com.svc.common.Status': { removed: false } })
  assert.equal((await svc.call('GET', versioned(urn, 'status', 2))).body.aspect, { 'com.svc.common.Status': { removed: true } })
  const missing = await svc.call('GET', versioned(urn, 'status', 3))
  assert.is(missing.status, 404)
  assert.is(missing.body.code, 'VERSION_NOT_FOUND')
})

t('DELETE removes the aspect and its versions', async ({ svc }) => {
  const res = await svc.call('POST', PROPOSE, { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'DELETE', aspectName: 'status' } })
  assert.is(res.status, 200)
  assert.is((await svc.call('GET', versioned(urn, 'status', 0))).status, 404)
  assert.is((await svc.call('GET', versioned(urn, 'status', 1))).status, 404)
  assert.not.ok((await svc.call('GET', v2(urn))).body.aspects.status)
})

t('DELETE of the key aspect removes the entity; reads answer the key alone', async ({ svc }) => {
  const res = await svc.call('POST', PROPOSE, { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'DELETE', aspectName: 'datasetKey' } })
  assert.is(res.status, 200)
  assert.is((await svc.call('GET', versioned(urn, 'ownership', 0))).status, 404)
  assert.equal(Object.keys((await svc.call('GET', v2(urn))).body.aspects), ['datasetKey'])
})

t('timeseries aspects accept UPSERT only', async ({ svc }) => {
  const res = await svc.call('POST', PROPOSE, { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'DELETE', aspectName: 'datasetProfile' } })
  assert.is(res.status, 400)
  assert.is(res.body.code, 'UNSUPPORTED_CHANGE')
})

t('the change log records each applied change once', async ({ svc }) => {
  const redis = svc.gateway.model.redis
  const other = 'urn:svc:corpuser:changelog'
  const key = svc.gateway.model.keys.changeLog(svc.gateway.model.keys.shardOf(other))
  const before = await redis.xlen(key)
  const body = { proposal: { entityType: 'corpuser', entityUrn: other, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: '{"active":true,"displayName":"C"}', contentType: 'application/json' }, systemMetadata: { runId: 'run-1' } } }
  assert.is((await svc.call('POST', PROPOSE, body)).status, 200)
  assert.is((await svc.call('POST', PROPOSE, body)).status, 200)
  const entries = await redis.xrange(key, '-', '+')
  const added = entries.slice(before).map(([, fields]) => Object.fromEntries(fields.reduce<string[][]>((acc, v, i) => (i % 2 ? acc[acc.length - 1]!.push(v) : acc.push([v]), acc), [])))
  assert.equal(added.map((e) => e.aspectName), ['corpUserKey', 'corpUserInfo'])
  const info = added[1]!
  assert.is(info.entityType, 'corpuser')
  assert.is(info.entityUrn, other)
  assert.is(info.changeType, 'UPSERT')
  assert.equal(JSON.parse(info.aspect!), { active: true, displayName: 'C' })
  assert.is(JSON.parse(info.systemMetadata!).runId, 'run-1')
  assert.ok(JSON.parse(info.created!).time > 0)
})

t('the batch route checks and applies each proposal on its own', async ({ svc }) => {
  const good = proposal('status', { removed: false })
  const bad = proposal('status', { removed: 'nope' })
  const res = await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals: [good, bad.proposal, good.proposal] .map((p) => ('proposal' in (p as object) ? (p as { proposal: unknown }).proposal : p)) })
  assert.is(res.status, 200)
  assert.is(res.body.value.accepted, 2)
  assert.is(res.body.value.rejected, 1)
  assert.is(res.body.value.results[1].status, 400)
  assert.is(res.body.value.results[1].error.code, 'INVALID_ASPECT')
})

t.run()
