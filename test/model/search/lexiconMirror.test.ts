/**
 * The native engine's copy of the lexicons that CONTAIN and END_WITH compare (model/search/native/lexiconMirror.ts),
 * through the service on the pass's real Redis: a write acknowledged is in the very next answer, whether it adds
 * a value, removes one or removes an entity; and the copy recovers when its change log lost entries it had not read
 * (trimmed, or deleted as a rebuild does).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService } from '../../helpers/service.ts'
import { scanKeys } from '../../../model/store/redis.ts'

const mirror = suite<{ svc: TestService }>('native lexicon copies (CONTAIN, END_WITH)')
const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const properties = (svc: TestService, name: string, shown = name) => svc.call('POST', '/aspects?action=ingestProposal', {
  proposal: { entityType: 'dataset', entityUrn: ds(name), changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ name: shown }), contentType: 'application/json' } },
})
const matching = async (svc: TestService, field: string, condition: string, value: string): Promise<string[]> => {
  const res = await svc.call('POST', '/entities?action=search', { input: '*', entity: 'dataset', start: 0, count: 100, filter: { or: [{ and: [{ field, condition, value }] }] } })
  assert.is(res.status, 200, JSON.stringify(res.body))
  return (res.body.value.entities as string[]).sort()
}
const logs = async (svc: TestService): Promise<string[]> => {
  const found: string[] = []
  await scanKeys(svc.gateway.model.redis, `${svc.config.keyPrefix}*:ix:dataset:vlog:`, async (keys) => { found.push(...keys) })
  return found
}

mirror.before(async (ctx) => {
  ctx.svc = await startService({ searchEngine: 'native' })
  for (const name of ['orders_daily', 'orders_hourly', 'users_daily']) assert.is((await properties(ctx.svc, name)).status, 200)
})
mirror.after(async (ctx) => { await ctx.svc.close() })

mirror('a write acknowledged is in the next answer: a value added, changed, an entity removed', async ({ svc }) => {
  assert.equal(await matching(svc, 'name', 'CONTAIN', 'daily'), [ds('orders_daily'), ds('users_daily')])
  assert.equal(await matching(svc, 'name', 'END_WITH', 'HOURLY'), [ds('orders_hourly')], 'case does not matter')
  assert.is((await properties(svc, 'events_daily')).status, 200)
  assert.equal(await matching(svc, 'name', 'CONTAIN', 'daily'), [ds('events_daily'), ds('orders_daily'), ds('users_daily')])
  // The shown name (displayName; `name` is the urn's) changes: the old value leaves its lexicon, the new one enters it.
  assert.equal(await matching(svc, 'displayName', 'CONTAIN', 'daily'), [ds('events_daily'), ds('orders_daily'), ds('users_daily')])
  assert.is((await properties(svc, 'users_daily', 'users_weekly')).status, 200)
  assert.equal(await matching(svc, 'displayName', 'END_WITH', 'weekly'), [ds('users_daily')])
  assert.equal(await matching(svc, 'displayName', 'CONTAIN', 'daily'), [ds('events_daily'), ds('orders_daily')])
  assert.is((await svc.call('POST', '/entities?action=delete', { urn: ds('orders_daily') })).status, 200)
  assert.equal(await matching(svc, 'name', 'CONTAIN', 'daily'), [ds('events_daily'), ds('users_daily')], 'a removed entity leaves')
  assert.equal(await matching(svc, 'urn', 'CONTAIN', 'ORDERS_'), [ds('orders_hourly')], 'urns compare without regard to case')
})

mirror('a copy whose log was trimmed past it, or deleted, copies its lexicons again', async ({ svc }) => {
  assert.equal(await matching(svc, 'name', 'CONTAIN', 'hourly'), [ds('orders_hourly')])
  const redis = svc.gateway.model.redis
  const [log] = await logs(svc)
  assert.ok(log, 'the index has a change log')
  assert.is((await properties(svc, 'sales_hourly')).status, 200)
  await redis.xtrim(log!, 'MAXLEN', 0)
  assert.equal(await matching(svc, 'name', 'CONTAIN', 'hourly'), [ds('orders_hourly'), ds('sales_hourly')], 'after a trim')
  await redis.del(log!)
  assert.is((await properties(svc, 'stock_hourly')).status, 200)
  await redis.del(log!)
  assert.equal(await matching(svc, 'name', 'CONTAIN', 'hourly'), [ds('orders_hourly'), ds('sales_hourly'), ds('stock_hourly')], 'after a delete')
})

mirror.run()
