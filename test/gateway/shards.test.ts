/**
 * What sharding must not change, checked with several shards (on one server: 4; on the cluster pass: 16): a hard
 * delete leaves no edge naming the deleted urn in any shard, pages of tied results hold every match exactly once
 * in one order, and restore, rollback and browse see every shard. Also the layout record and replica acks.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Keys } from '../../model/store/keys.ts'
import { ensureLayout, LayoutError } from '../../model/store/layout.ts'
import { startService, onCluster, type TestService } from '../helpers/service.ts'
import { restoreFrom, type RestoreStep } from '../../model/services/restore.ts'
import { withSubmit } from '../../ops/cli/submit.ts'

const SHARDS = onCluster() ? 16 : 4
const t = suite<{ svc: TestService }>(`shards (${SHARDS} shards)`)
t.before(async (ctx) => { ctx.svc = await startService({ shards: SHARDS }) })
t.after(async (ctx) => { await ctx.svc.close() })

const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const enc = encodeURIComponent
const propose = (svc: TestService, urn: string, aspectName: string, value: unknown) =>
  svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: urn.split(':')[2], entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } } })
const rel = async (svc: TestService, urn: string, direction: string, types: string) =>
  (await svc.call('GET', `/relationships?direction=${direction}&urn=${enc(urn)}&types=${types}&count=1000`)).body.entities as string[]
const lineage = async (svc: TestService, urn: string, direction: string) =>
  ((await svc.call('GET', `/lineage?urn=${enc(urn)}&direction=${direction}&maxHops=5`)).body.entities as { urn: string }[]).map((e) => e.urn)
const upstreams = (...names: string[]) => ({ upstreams: names.map((n) => ({ dataset: ds(n), type: 'TRANSFORMED' })) })

t('the sample urns spread over several shards', ({ svc }) => {
  const keys = svc.gateway.model.keys
  const shards = new Set(Array.from({ length: 40 }, (_, i) => keys.shardOf(ds(`spread_${i}`))))
  assert.ok(shards.size > 1, `40 urns in ${shards.size} shard(s)`)
})

t('a hard delete drops every edge naming the deleted urn, in either direction, whatever shard holds it', async ({ svc }) => {
  const target = ds('hd_target')
  const children = Array.from({ length: 12 }, (_, i) => ds(`hd_child_${i}`))
  assert.ok(new Set(children.map((c) => svc.gateway.model.keys.shardOf(c))).size > 1, 'children in several shards')
  assert.is((await propose(svc, target, 'upstreamLineage', upstreams('hd_source'))).status, 200)
  for (const child of children) assert.is((await propose(svc, child, 'upstreamLineage', upstreams('hd_target'))).status, 200)
  const owner = 'urn:svc:corpuser:hd_owner'
  assert.is((await propose(svc, target, 'ownership', { owners: [{ owner, type: 'DATAOWNER' }] })).status, 200)
  assert.equal((await rel(svc, target, 'INCOMING', 'DownstreamOf')).sort(), [...children].sort())
  assert.equal((await lineage(svc, ds('hd_source'), 'DOWNSTREAM')).sort(), [target, ...children].sort())

  const deleted = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: target, changeType: 'DELETE', aspectName: 'datasetKey' } })
  assert.is(deleted.status, 200, JSON.stringify(deleted.body))
  assert.equal(await rel(svc, target, 'INCOMING', 'DownstreamOf'), [])
  assert.equal(await rel(svc, target, 'OUTGOING', 'DownstreamOf'), [])
  for (const child of children) {
    assert.equal(await rel(svc, child, 'OUTGOING', 'DownstreamOf'), [], child)
    assert.not.ok((await lineage(svc, child, 'UPSTREAM')).includes(target))
  }
  assert.equal(await rel(svc, owner, 'INCOMING', 'OwnedBy'), [])
  assert.equal(await lineage(svc, ds('hd_source'), 'DOWNSTREAM'), [])
  // The children's own aspects still name the urn (as upstream's graph leaves them); only the edges went.
  const child = await svc.call('GET', `/entitiesV2/${enc(children[0]!)}?aspects=List(upstreamLineage)`)
  assert.is(child.body.aspects.upstreamLineage.value.upstreams[0].dataset, target)
})

t('an asynchronous hard delete drops the edges others hold to it too, once applied', async ({ svc }) => {
  const target = ds('ahd_target')
  const children = Array.from({ length: 8 }, (_, i) => ds(`ahd_child_${i}`))
  for (const child of children) assert.is((await propose(svc, child, 'upstreamLineage', upstreams('ahd_target'))).status, 200)
  assert.is((await propose(svc, target, 'datasetProperties', { description: 'to be removed' })).status, 200)
  assert.is((await rel(svc, target, 'INCOMING', 'DownstreamOf')).length, children.length)

  const queued = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: target, changeType: 'DELETE', aspectName: 'datasetKey' }, async: 'true' })
  assert.is(queued.status, 200, JSON.stringify(queued.body))
  // Nobody waits for the cleanup: poll until it was applied (or give up after 20 s).
  let left: string[] = children
  for (let waited = 0; waited < 20_000 && left.length > 0; waited += 100) {
    await new Promise((r) => setTimeout(r, 100))
    left = await rel(svc, target, 'INCOMING', 'DownstreamOf')
  }
  assert.equal(left, [], 'edges to the deleted urn')
  for (const child of children) assert.equal(await rel(svc, child, 'OUTGOING', 'DownstreamOf'), [], child)
})

t('tied matches paged one at a time come back exactly once each, in urn order', async ({ svc }) => {
  const names = Array.from({ length: 12 }, (_, i) => `tiepage_${String(i).padStart(2, '0')}`)
  for (const name of names) assert.is((await propose(svc, ds(name), 'datasetProperties', { description: 'zebracorn' })).status, 200)
  for (const input of ['zebracorn', 'zebraco', '*']) {
    const seen: string[] = []
    const filter = input === '*' ? { or: [{ and: [{ field: 'description', condition: 'EQUAL', value: 'zebracorn' }] }] } : undefined
    for (let start = 0; start < 14; start++) {
      const res = await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start, count: 1, ...(filter ? { filter } : {}) })
      assert.is(res.status, 200, JSON.stringify(res.body))
      assert.is(res.body.value.numEntities, 12, input)
      seen.push(...res.body.value.entities)
    }
    assert.equal(seen, names.map(ds), input)
    const whole = await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 20, ...(filter ? { filter } : {}) })
    assert.equal(whole.body.value.entities, names.map(ds), `${input}: one page`)
  }
})

t('browse, autocomplete and facets count every shard', async ({ svc }) => {
  const names = Array.from({ length: 10 }, (_, i) => `browseshard_${i}`)
  for (const name of names) assert.is((await propose(svc, ds(name), 'status', { removed: false })).status, 200)
  const browse = await svc.call('POST', '/entities?action=browse', { path: '/prod/hive', entity: 'dataset', start: 0, limit: 1000 })
  const listed = (browse.body.value.entities as { urn: string }[]).map((e) => e.urn).filter((u) => u.includes('browseshard_'))
  assert.equal(listed, names.map(ds).sort())
  const page = await svc.call('POST', '/entities?action=browse', { path: '/prod/hive', entity: 'dataset', start: 3, limit: 2 })
  const all = (browse.body.value.entities as { urn: string }[]).map((e) => e.urn)
  assert.equal((page.body.value.entities as { urn: string }[]).map((e) => e.urn), all.slice(3, 5))
  const ac = await svc.call('POST', '/entities?action=autocomplete', { query: 'browsesh', entity: 'dataset', limit: 20 })
  assert.is(ac.body.value.suggestions.length, 10)
  const search = await svc.call('POST', '/entities?action=search', { input: 'browseshard', entity: 'dataset', start: 0, count: 1 })
  assert.is(search.body.value.metadata.searchResultMetadatas.find((f: { name: string }) => f.name === 'platform').aggregations.hive, 10)
})

t('autocomplete across shards reads the first suggestion entries of them all, as one server does', async ({ svc }) => {
  // 60 long names first in entry order, then a short one: one server reads the first 50 entries (a limit of 10
  // reads 50), so the short name is not among them; shards each reading their own first 50 would have found it.
  const long = Array.from({ length: 60 }, (_, i) => `acshare_${String(i).padStart(3, '0')}_long_tail`)
  await Promise.all([...long, 'acshare_z'].map(async (name) => assert.is((await propose(svc, ds(name), 'status', { removed: false })).status, 200)))
  const ac = await svc.call('POST', '/entities?action=autocomplete', { query: 'acshare', entity: 'dataset', limit: 10 })
  assert.equal(ac.body.value.suggestions, long.slice(0, 10))
  const all = await svc.call('POST', '/entities?action=autocomplete', { query: 'acshare_z', entity: 'dataset', limit: 10 })
  assert.equal(all.body.value.suggestions, ['acshare_z'])
  const filtered = await svc.call('POST', '/entities?action=autocomplete', { query: 'acshare', entity: 'dataset', limit: 5, filter: { or: [{ and: [{ field: 'name', condition: 'END_WITH', value: '7_long_tail' }] }] } })
  assert.equal(filtered.body.value.suggestions, ['acshare_007_long_tail', 'acshare_017_long_tail', 'acshare_027_long_tail', 'acshare_037_long_tail', 'acshare_047_long_tail'])
  // A value that starts with the query ranks before a shorter one where the query starts a later word, whatever its letters.
  for (const name of ['Ñandúac_zeta', 'aa_ñandúac']) assert.is((await propose(svc, ds(name), 'status', { removed: false })).status, 200)
  for (const filter of [undefined, { or: [{ and: [{ field: 'origin', condition: 'EQUAL', value: 'PROD' }] }] }]) {
    const ranked = await svc.call('POST', '/entities?action=autocomplete', { query: 'ñandúac', entity: 'dataset', limit: 10, ...(filter ? { filter } : {}) })
    assert.equal(ranked.body.value.suggestions, ['Ñandúac_zeta', 'aa_ñandúac'], filter ? 'with a filter' : 'without')
  }
})

t('a deep browse page (from 100 on) across shards is the slice of the whole listing', async ({ svc }) => {
  const names = Array.from({ length: 130 }, (_, i) => `browsedeep_${String(i).padStart(3, '0')}`)
  await Promise.all(names.map(async (name) => assert.is((await propose(svc, ds(name), 'status', { removed: false })).status, 200)))
  const whole = await svc.call('POST', '/entities?action=browse', { path: '/prod/hive', entity: 'dataset', start: 0, limit: 10_000 })
  const all = (whole.body.value.entities as { urn: string }[]).map((e) => e.urn)
  assert.ok(all.length >= 130)
  for (const start of [100, 117, all.length - 3]) {
    const page = await svc.call('POST', '/entities?action=browse', { path: '/prod/hive', entity: 'dataset', start, limit: 10 })
    assert.equal((page.body.value.entities as { urn: string }[]).map((e) => e.urn), all.slice(start, start + 10), `from ${start}`)
    assert.is(page.body.value.numEntities, whole.body.value.numEntities)
  }
})

t('a facet value spelled differently in several shards is one bucket counting every shard, as on one shard', async ({ svc }) => {
  const keys = svc.gateway.model.keys
  // Two spellings of one tag, each written in a shard of its own first (each shard then spells the value its way).
  const urns = Array.from({ length: 12 }, (_, i) => ds(`spelled_${i}`))
  const [first, second] = [urns[0]!, urns.find((u) => keys.shardOf(u) !== keys.shardOf(urns[0]!))!]
  const spelling = (urn: string) => (keys.shardOf(urn) === keys.shardOf(first) ? 'urn:svc:tag:MixedCase' : 'urn:svc:tag:mixedcase')
  for (const urn of [first, second, ...urns.filter((u) => u !== first && u !== second)]) {
    assert.is((await propose(svc, urn, 'globalTags', { tags: [{ tag: spelling(urn) }] })).status, 200)
    assert.is((await propose(svc, urn, 'datasetProperties', { name: 'spelledfacet' })).status, 200)
  }
  for (const input of ['spelledfacet', 'spelledfac*']) {
    const res = await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 1 })
    const tags = res.body.value.metadata.searchResultMetadatas.find((f: { name: string }) => f.name === 'tags').aggregations as Record<string, number>
    const buckets = Object.entries(tags).filter(([value]) => value.toLowerCase().includes('mixedcase'))
    assert.is(buckets.length, 1, `${input}: one bucket, ${JSON.stringify(tags)}`)
    assert.is(buckets[0]![1], 12, `${input}: every shard counted`)
  }
})
t('a whole restore goes on from the last row restored in every shard: each row once, in order; resumed from any batch, the rest', async ({ svc }) => {
  const model = svc.gateway.model
  const names = Array.from({ length: 30 }, (_, i) => `restoreshard_${String(i).padStart(2, '0')}`)
  for (const name of names) assert.is((await propose(svc, ds(name), 'datasetProperties', { name })).status, 200)
  const prefix = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,restoreshard_'
  const urns = (await Promise.all(model.keys.allShards().map((shard) => model.redis.zrangebylex(model.keys.entities(shard), `[${prefix}`, `[${prefix}\xff`)))).flat()
  const rows = (await Promise.all(urns.map(async (urn) => (await model.redis.hkeys(model.keys.latest(urn))).map((aspect) => `${urn}\u0000${aspect}`)))).flat().sort()
  assert.ok(rows.length >= 60, `${rows.length} rows`)
  const steps: RestoreStep[] = []
  const restored = await withSubmit(model, (submit) => restoreFrom(model, submit, { urnLike: `${prefix}%`, start: 0, batchSize: 7 }, (step) => { steps.push(step) }))
  assert.is(restored, rows.length, 'every row restored once')
  assert.equal(steps.map((s) => s.last), [...rows.filter((_, i) => (i + 1) % 7 === 0), rows.length % 7 ? rows[rows.length - 1]! : null].filter((r) => r !== null), 'batches of 7 in order')
  assert.equal(steps.map((s) => s.nextStart), [...steps.slice(1).map((_, i) => 7 * (i + 1)), null])
  // From the cursor a batch leaves (its row number and last row), the rows after it.
  const third = steps[2]!
  const rest = await withSubmit(model, (submit) => restoreFrom(model, submit, { urnLike: `${prefix}%`, start: third.nextStart!, after: third.last!, batchSize: 10 }))
  assert.is(rest, rows.length - 21)
  // An older cursor (the row number alone) reads up to it once.
  const old = await withSubmit(model, (submit) => restoreFrom(model, submit, { urnLike: `${prefix}%`, start: 50, batchSize: 4 }))
  assert.is(old, rows.length - 50)
  const search = await svc.call('POST', '/entities?action=search', { input: 'restoreshard', entity: 'dataset', start: 0, count: 100 })
  assert.is(search.body.value.numEntities, 30)
})

t('the layout record refuses a process started with another shard count', async ({ svc }) => {
  const redis = svc.gateway.model.redis
  await ensureLayout(redis, svc.gateway.model.keys)
  try {
    await ensureLayout(redis, new Keys(svc.config.keyPrefix, SHARDS + 1))
    assert.unreachable('refused')
  } catch (err) {
    assert.instance(err, LayoutError)
    assert.match((err as Error).message, `cut into ${SHARDS} shards but SHARDS is ${SHARDS + 1}`)
  }
})

t.run()
