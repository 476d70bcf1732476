/**
 * The native engine's copy of the lexicons that CONTAIN and END_WITH compare and of the documents' facet values
 * (model/search/native/indexMirror.ts), through the service on the pass's real Redis: a write acknowledged is in the
 * very next answer, whether it adds a value, removes one or removes an entity; and the copy recovers when its change
 * log lost entries it had not read (trimmed, or deleted as a rebuild does); a gateway copies before it is ready and
 * reads the log in the background, so that no query copies a whole part.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { onCluster, startService, type TestService } from '../../helpers/service.ts'
import { scanKeys } from '../../../model/store/redis.ts'
import { LOG_LENGTH, logLength, logRecords } from '../../../model/search/native/indexMirror.ts'

const mirror = suite<{ svc: TestService }>('native index copies (CONTAIN, END_WITH, facets)')
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
  await scanKeys(svc.gateway.model.redis, `${svc.config.keyPrefix}*:ix:dataset:log:`, async (keys) => { found.push(...keys) })
  return found
}

mirror.before(async (ctx) => {
  // Every result of more than one urn has its facets counted from its bitmap and the copy of the facet values.
  ctx.svc = await startService({ searchEngine: 'native', nativeBitmapMin: 1 })
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

mirror('names shared by several documents: CONTAIN and END_WITH find each document that has one, and only while it has it', async ({ svc }) => {
  for (const name of ['shared_a', 'shared_b', 'shared_c']) assert.is((await properties(svc, name, 'Common Title')).status, 200)
  assert.equal(await matching(svc, 'displayName', 'CONTAIN', 'mon tit'), [ds('shared_a'), ds('shared_b'), ds('shared_c')])
  assert.is((await properties(svc, 'shared_b', 'Other Title')).status, 200)
  assert.equal(await matching(svc, 'displayName', 'END_WITH', 'common title'), [ds('shared_a'), ds('shared_c')], 'a document that changed its name leaves it')
  assert.equal(await matching(svc, 'displayName', 'CONTAIN', 'title'), [ds('shared_a'), ds('shared_b'), ds('shared_c')])
  assert.is((await svc.call('POST', '/entities?action=delete', { urn: ds('shared_a') })).status, 200)
  assert.equal(await matching(svc, 'displayName', 'CONTAIN', 'common'), [ds('shared_c')], 'a removed document leaves it')
  const negated = await svc.call('POST', '/entities?action=search', { input: 'shared', entity: 'dataset', start: 0, count: 10, filter: { or: [{ and: [{ field: 'displayName', condition: 'CONTAIN', value: 'common', negated: true }] }] } })
  assert.equal((negated.body.value.entities as string[]).sort(), [ds('shared_b')], 'negated, with a word')
})

mirror('facets are counted from the result\'s documents (bitmap or numbers), current after each write', async ({ svc }) => {
  const tag = (name: string, tags: string[]) => svc.call('POST', '/aspects?action=ingestProposal', {
    proposal: { entityType: 'dataset', entityUrn: ds(name), changeType: 'UPSERT', aspectName: 'globalTags', aspect: { value: JSON.stringify({ tags: tags.map((t) => ({ tag: `urn:svc:tag:${t}` })) }), contentType: 'application/json' } },
  })
  const tagFacet = async (input: string) => {
    const res = await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 10 })
    assert.is(res.status, 200, JSON.stringify(res.body))
    return res.body.value.metadata.searchResultMetadatas.find((f: { name: string }) => f.name === 'tags')?.aggregations ?? {}
  }
  for (const name of ['metrics_a', 'metrics_b', 'metrics_c']) assert.is((await properties(svc, name)).status, 200)
  assert.is((await tag('metrics_a', ['Gold', 'PII'])).status, 200)
  assert.is((await tag('metrics_b', ['Gold'])).status, 200)
  assert.equal(await tagFacet('metrics'), { 'urn:svc:tag:Gold': 2, 'urn:svc:tag:PII': 1 })
  assert.is((await tag('metrics_b', ['PII'])).status, 200)
  assert.equal(await tagFacet('metrics'), { 'urn:svc:tag:Gold': 1, 'urn:svc:tag:PII': 2 })
  assert.is((await svc.call('POST', '/entities?action=delete', { urn: ds('metrics_a') })).status, 200)
  assert.equal(await tagFacet('metrics'), { 'urn:svc:tag:PII': 1 })
  // A new document may take the number the removed one freed: it is counted with its own values.
  assert.is((await properties(svc, 'metrics_d')).status, 200)
  assert.is((await tag('metrics_d', ['Silver'])).status, 200)
  assert.equal(await tagFacet('metrics'), { 'urn:svc:tag:PII': 1, 'urn:svc:tag:Silver': 1 })
  // A value that left every document and comes back spelled otherwise is shown with its new spelling.
  assert.is((await tag('metrics_d', [])).status, 200)
  assert.equal(await tagFacet('metrics'), { 'urn:svc:tag:PII': 1 })
  assert.is((await tag('metrics_c', ['SILVER'])).status, 200)
  assert.equal(await tagFacet('metrics'), { 'urn:svc:tag:PII': 1, 'urn:svc:tag:SILVER': 1 })
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

mirror('a word copy made again from the index (words:) answers as the copy that followed the log', async ({ svc }) => {
  const ask = async (input: string) => {
    const res = await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 100 })
    assert.is(res.status, 200, JSON.stringify(res.body))
    return { total: res.body.value.numEntities as number, entities: res.body.value.entities as string[] }
  }
  // Copies of every type made (their HSCANs done) before the count below.
  await svc.gateway.warmed
  // Urns named without the words (a urn's own words are indexed too).
  for (const [name, shown] of [['wc1', 'zeta one'], ['wc2', 'zeta two'], ['wc3', 'zeta three']]) assert.is((await properties(svc, name!, shown)).status, 200)
  // One document's words change, another leaves: the index must not keep what the log took away.
  assert.is((await properties(svc, 'wc2', 'omega two')).status, 200)
  assert.is((await svc.call('POST', '/entities?action=delete', { urn: ds('wc3') })).status, 200)
  const inputs = ['zeta', 'omega', 'three', 'two', 'zet*']
  const followed = await Promise.all(inputs.map(ask))
  assert.equal(followed[0]!.entities, [ds('wc1')])
  assert.equal(followed[1]!.entities, [ds('wc2')])
  assert.is(followed[2]!.total, 0)
  // The log and its origin deleted (as a rebuild does): the copy is made again, from words: (HSCAN, counted on one
  // server; by the query or by the background read, whichever comes first).
  const redis = svc.gateway.model.redis
  if (!onCluster()) await redis.config('RESETSTAT')
  for (const log of await logs(svc)) await redis.del(log, log.replace(/log:$/, 'logorigin:'))
  assert.equal(await Promise.all(inputs.map(ask)), followed)
  if (!onCluster()) assert.match(await redis.info('commandstats'), /cmdstat_hscan:/)
})

mirror('a gateway copies facet lines and names before it is ready, and reads their log without queries', async ({ svc }) => {
  await svc.gateway.warmed
  assert.is((await svc.call('GET', '/ready')).body.search, 'ready')
  // Commands are counted per server: one server shows them all.
  if (onCluster()) return
  const redis = svc.gateway.model.redis
  // The facet lines are copied by HSCAN, which nothing else in a query sends.
  const copied = async () => /cmdstat_hscan:/.test(await redis.info('commandstats'))
  assert.is((await properties(svc, 'warm_daily')).status, 200)
  // Entries the background read took are not lost when the log is trimmed: the next query copies nothing whole.
  await new Promise((r) => setTimeout(r, 3000))
  const [log] = await logs(svc)
  await redis.xtrim(log!, 'MAXLEN', 0)
  await redis.config('RESETSTAT')
  assert.equal(await matching(svc, 'name', 'CONTAIN', 'warm_'), [ds('warm_daily')])
  assert.is(await copied(), false, 'no facet line was copied inside the query')
})

mirror("each shard's change log keeps its share of LOG_LENGTH, 1,500 entries at least", () => {
  assert.is(logLength(1), LOG_LENGTH)
  assert.is(logLength(4), LOG_LENGTH / 4)
  assert.is(logLength(16), 1_500)
  assert.is(logLength(128), 1_500)
})

mirror('an apply logs its changes as one entry per log: a new dataset\'s document number, urn, words and pairs together', async ({ svc }) => {
  const redis = svc.gateway.model.redis
  const urn = ds('one_entry_daily')
  const log = svc.gateway.model.keys.nativeIndex(svc.gateway.model.keys.shardOf(urn), 'dataset', 'log')
  const before = await redis.xlen(log)
  assert.is((await properties(svc, 'one_entry_daily')).status, 200)
  assert.is(await redis.xlen(log), before + 1, 'one entry')
  const [[, fields]] = await redis.xrevrange(log, '+', '-', 'COUNT', 1) as [string, string[]][]
  const records = logRecords(fields!)
  assert.ok(records.length >= 4, JSON.stringify(records))
  assert.ok(records.some((r) => r.n !== undefined && r.l !== undefined), 'its document number and facet line')
  assert.ok(records.some((r) => r.w !== undefined && r.u === urn), 'its words')
  assert.ok(records.some((r) => r.f === 'name' && r.v === 'one_entry_daily' && r.p === '1'), 'its name\'s pair')
  assert.equal(await matching(svc, 'name', 'CONTAIN', 'one_entry'), [urn])
})

mirror('log records: an entry of one change is its fields, an entry of several separates each with +', () => {
  assert.equal(logRecords(['n', '4', 'l', 'x']), [{ n: '4', l: 'x' }])
  assert.equal(logRecords(['+', '', 'n', '4', '+', '', 'f', 'name', 'v', 'a+b', 'p', '1']), [{ n: '4' }, { f: 'name', v: 'a+b', p: '1' }])
  assert.equal(logRecords(['+', '', 'u', 'urn:x', 'd', '', 'w', '']), [{ u: 'urn:x', d: '', w: '' }])
})

mirror.run()
