import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fixture } from '../helpers/fixtures.ts'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService }>('relationships and lineage')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const enc = encodeURIComponent
const propose = (svc: TestService, urn: string, aspectName: string, value: unknown, changeType = 'UPSERT') =>
  svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: urn.split(':')[2], entityUrn: urn, changeType, aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } } })
const rel = async (svc: TestService, urn: string, direction: string, types: string, extra = '') =>
  (await svc.call('GET', `/relationships?direction=${direction}&urn=${enc(urn)}&types=${types}${extra}`)).body
const owners = (...users: string[]) => ({ owners: users.map((u) => ({ owner: `urn:svc:corpuser:${u}`, type: 'DATAOWNER' })) })
const upstreams = (...names: string[]) => ({ upstreams: names.map((n) => ({ dataset: ds(n), type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:svc:corpuser:x' } })) })

t('the guide example: INCOMING OwnedBy of fbar lists the dataset it owns', async ({ svc }) => {
  const examples = fixture('examples.json')
  const write = examples.find((e) => e.name.startsWith('ingest snapshot: DatasetSnapshot foo/bar'))!
  assert.is((await svc.call('POST', write.path, write.body)).status, 200)
  const read = examples.find((e) => e.name.startsWith('derived: relationships INCOMING OwnedBy for corpuser fbar'))!
  const res = await svc.call('GET', read.path)
  assert.is(res.status, 200)
  assert.equal(res.body.entities, (read.shownResponse as { entities: string[] }).entities)
  assert.equal(res.body.relationships, [{ type: 'OwnedBy', entity: 'urn:svc:dataset:(urn:svc:dataPlatform:foo,bar,PROD)' }])
  assert.is(res.body.total, 1)
})

t('edges follow every change: an owner removed loses its edge', async ({ svc }) => {
  await propose(svc, ds('orders'), 'ownership', owners('alice', 'bob'))
  assert.equal((await rel(svc, ds('orders'), 'OUTGOING', 'OwnedBy')).entities, ['urn:svc:corpuser:alice', 'urn:svc:corpuser:bob'])
  await propose(svc, ds('orders'), 'ownership', owners('bob'))
  assert.equal((await rel(svc, ds('orders'), 'OUTGOING', 'OwnedBy')).entities, ['urn:svc:corpuser:bob'])
  assert.equal((await rel(svc, 'urn:svc:corpuser:alice', 'INCOMING', 'OwnedBy')).entities, [])
  assert.equal((await rel(svc, 'urn:svc:corpuser:bob', 'INCOMING', 'OwnedBy')).entities, [ds('orders')])
})

t('several types, the List() form, and paging', async ({ svc }) => {
  await propose(svc, ds('orders'), 'globalTags', { tags: [{ tag: 'urn:svc:tag:pii' }] })
  const both = await rel(svc, ds('orders'), 'OUTGOING', 'List(OwnedBy,TaggedWith)')
  assert.equal(both.relationships, [{ type: 'OwnedBy', entity: 'urn:svc:corpuser:bob' }, { type: 'TaggedWith', entity: 'urn:svc:tag:pii' }])
  for (let i = 0; i < 5; i++) await propose(svc, ds(`t${i}`), 'globalTags', { tags: [{ tag: 'urn:svc:tag:pii' }] })
  const page = await rel(svc, 'urn:svc:tag:pii', 'INCOMING', 'TaggedWith', '&start=2&count=2')
  assert.is(page.total, 6)
  assert.is(page.start, 2)
  assert.equal(page.entities, [ds('t1'), ds('t2')])
})

t('a deleted entity loses its edges in both directions', async ({ svc }) => {
  await propose(svc, ds('child'), 'upstreamLineage', upstreams('orders'))
  assert.equal((await rel(svc, ds('orders'), 'INCOMING', 'DownstreamOf')).entities, [ds('child')])
  await propose(svc, ds('orders'), 'datasetKey', {}, 'DELETE')
  assert.equal((await rel(svc, ds('orders'), 'OUTGOING', 'OwnedBy')).entities, [])
  assert.equal((await rel(svc, 'urn:svc:corpuser:bob', 'INCOMING', 'OwnedBy')).entities, [])
  assert.equal((await rel(svc, ds('orders'), 'INCOMING', 'DownstreamOf')).entities, [])
  assert.equal((await rel(svc, ds('child'), 'OUTGOING', 'DownstreamOf')).entities, [])
})

t('lineage: several hops either way, cycles end the walk', async ({ svc }) => {
  // a <- b <- c <- d, and a cycle d <- a
  await propose(svc, ds('b'), 'upstreamLineage', upstreams('a'))
  await propose(svc, ds('c'), 'upstreamLineage', upstreams('b'))
  await propose(svc, ds('d'), 'upstreamLineage', upstreams('c'))
  await propose(svc, ds('a'), 'upstreamLineage', upstreams('d'))
  const down = (await svc.call('GET', `/lineage?urn=${enc(ds('a'))}&direction=DOWNSTREAM&maxHops=2`)).body
  assert.equal(down.entities, [{ urn: ds('b'), hops: 1 }, { urn: ds('c'), hops: 2 }])
  const up = (await svc.call('GET', `/lineage?urn=${enc(ds('d'))}&direction=UPSTREAM&maxHops=10`)).body
  assert.equal(up.entities, [{ urn: ds('c'), hops: 1 }, { urn: ds('b'), hops: 2 }, { urn: ds('a'), hops: 3 }])
  assert.is(up.truncated, false)
})

t('bad parameters are 400s naming them', async ({ svc }) => {
  const bad = async (path: string, mention: RegExp) => {
    const res = await svc.call('GET', path)
    assert.is(res.status, 400, path)
    assert.match(`${res.body.message} ${JSON.stringify(res.body.details)}`, mention)
  }
  await bad(`/relationships?direction=SIDEWAYS&urn=${enc(ds('a'))}&types=OwnedBy`, /direction/)
  await bad('/relationships?direction=INCOMING&types=OwnedBy', /urn/)
  await bad(`/relationships?direction=INCOMING&urn=nope&types=OwnedBy`, /urn/)
  await bad(`/relationships?direction=INCOMING&urn=${enc(ds('a'))}&types=Befriends`, /Befriends/)
  await bad(`/relationships?direction=INCOMING&urn=${enc(ds('a'))}&types=OwnedBy&count=-1`, /count/)
  await bad(`/lineage?urn=${enc(ds('a'))}&direction=UP`, /direction/)
  await bad(`/lineage?urn=${enc(ds('a'))}&direction=UPSTREAM&maxHops=0`, /maxHops/)
})

t.run()
