/** Restore indices (route 11), rollback of a run, and access tokens, through HTTP against a real Redis. */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fixture } from '../helpers/fixtures.ts'
import { orphanedUrns } from '../../model/services/restore.ts'
import { selectRows } from '../../model/services/restoreRows.ts'
import { LAYOUT_VERSION } from '../../model/store/keys.ts'
import { ensureLayout } from '../../model/store/layout.ts'
import { scanKeys } from '../../model/store/redis.ts'
import { deleteKeys as deleteStoredKeys } from '../helpers/store.ts'
import { startService, tokenFor, type TestService } from '../helpers/service.ts'

type Views = { all: unknown; sample: unknown; prod: unknown; hiveFolder: unknown; jdoe: string[] }
const t = suite<{ svc: TestService; admin: string; baseline: Views }>('operations: restore indices, rollback, tokens')
t.before(async (ctx) => {
  ctx.svc = await startService()
  ctx.admin = await tokenFor(ctx.svc, 'admin')
  // Every record: in-spec ones and the dataPlatform ones are stored, the others refused.
  for (const r of fixture('bootstrap_mce.requests.json')) await ctx.svc.call(r.method, r.path, r.body)
  ctx.baseline = await views(ctx.svc)
})
t.after(async (ctx) => { await ctx.svc.close() })

const hive = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,SampleHiveDataset,PROD)'
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const search = async (svc: TestService, input: string) => (await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 100 })).body.value
const browse = async (svc: TestService, path: string) => (await svc.call('POST', '/entities?action=browse', { path, entity: 'dataset', start: 0, limit: 100 })).body.value
const owned = async (svc: TestService, user: string) => (await svc.call('GET', `/relationships?direction=INCOMING&urn=${encodeURIComponent(user)}&types=OwnedBy&count=1000`)).body.entities as string[]
const views = async (svc: TestService): Promise<Views> => ({
  all: await search(svc, '*'), sample: await search(svc, 'sample'), prod: await browse(svc, '/prod'),
  hiveFolder: await browse(svc, '/prod/hive'), jdoe: (await owned(svc, 'urn:svc:corpuser:jdoe')).sort(),
})
const deleteKeys = (svc: TestService, pattern: string) => deleteStoredKeys(svc.gateway.model.redis, svc.config.keyPrefix, pattern)

t('restoreIndices needs an admin token: 401 without, 403 with a read token', async ({ svc }) => {
  const none = await svc.call('POST', '/operations?action=restoreIndices', { urn: hive })
  assert.is(none.status, 401)
  assert.is(none.body.code, 'UNAUTHORIZED')
  assert.is((await svc.call('POST', '/operations?action=restoreIndices', { urn: hive }, bearer('svc_wrong'))).status, 401)
  const read = await svc.call('POST', '/operations?action=restoreIndices', { urn: hive }, bearer(await tokenFor(svc, 'read')))
  assert.is(read.status, 403)
  assert.is(read.body.code, 'FORBIDDEN')
})

t('restore of one urn rebuilds what was lost (the guide example, /gms prefix too)', async ({ svc, admin }) => {
  const before = { search: await search(svc, 'tags:Legacy'), owned: await owned(svc, 'urn:svc:corpuser:jdoe') }
  assert.equal(before.search.entities, [hive])
  await deleteKeys(svc, '{*}:ix:dataset:*')
  await deleteKeys(svc, `{*}:out:*:${hive}`)
  assert.equal((await search(svc, 'tags:Legacy')).entities, [])
  const res = await svc.call('POST', '/gms/operations?action=restoreIndices', { urn: hive }, bearer(admin))
  assert.is(res.status, 200)
  assert.ok(res.body.value.result.rowsRestored >= 3)
  assert.is(res.body.value.result.entitiesRestored, 1)
  assert.equal((await search(svc, 'tags:Legacy')).entities, [hive])
  assert.ok((await owned(svc, 'urn:svc:corpuser:jdoe')).includes(hive))
})

t('batches over every row (start, batchSize) make search, browse and edges whole again', async ({ svc, admin, baseline }) => {
  assert.ok((await deleteKeys(svc, '{*}:ix:*')) > 0)
  assert.ok((await deleteKeys(svc, '{*}:br:*')) > 0)
  assert.ok((await deleteKeys(svc, '{*}:in:*')) > 0)
  assert.is((await search(svc, '*')).numEntities, 0)
  let start: number | null = 0
  let restored = 0
  while (start !== null) {
    const res = await svc.call('POST', '/operations?action=restoreIndices', { start, batchSize: 7 }, bearer(admin))
    assert.is(res.status, 200, JSON.stringify(res.body))
    restored += res.body.value.result.rowsRestored
    start = res.body.value.result.nextStart
  }
  assert.ok(restored >= 7 * 3)
  assert.equal(await views(svc), baseline)
})

t('urnLike selects rows by SQL LIKE; aspect by equality', async ({ svc, admin }) => {
  const res = await svc.call('POST', '/operations?action=restoreIndices', { urnLike: 'urn:svc:dataPlatform:%', batchSize: 1000 }, bearer(admin))
  assert.is(res.body.value.result.rowsRestored, 27 * 2, 'key and info of each bootstrap platform')
  const guide = await svc.call('POST', '/operations?action=restoreIndices', { urnLike: 'urn:dataPlatform:%' }, bearer(admin))
  assert.is(guide.body.value.result.rowsRestored, 0, 'the guide pattern lacks the namespace')
  const oneAspect = await svc.call('POST', '/operations?action=restoreIndices', { urnLike: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,%', aspect: 'ownership', batchSize: 100 }, bearer(admin))
  assert.is(oneAspect.body.value.result.rowsRestored, 4)
  const underscore = await svc.call('POST', '/operations?action=restoreIndices', { urnLike: 'urn:svc:tag:Legac_', batchSize: 100 }, bearer(admin))
  assert.ok(underscore.body.value.result.rowsRestored >= 2)
})

t('stale entries of a deleted entity and stray edges go away', async ({ svc, admin }) => {
  const redis = svc.gateway.model.redis
  const keys = svc.gateway.model.keys
  const ghost = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,ghost,PROD)'
  await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: ghost, changeType: 'UPSERT', aspectName: 'ownership', aspect: { value: JSON.stringify({ owners: [{ owner: 'urn:svc:corpuser:jdoe', type: 'DATAOWNER' }] }), contentType: 'application/json' } } })
  assert.ok((await search(svc, 'ghost')).entities.includes(ghost))
  // Storage loses the entity behind the index's back: the entity list still names it, its aspects are gone.
  await redis.del(keys.latest(ghost))
  await redis.zadd(keys.edgesOut(hive, 'OwnedBy'), 0, 'urn:svc:corpuser:nobody')
  const stranger = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,stranger,PROD)'
  const strangerIn = keys.edgesIn(keys.shardOf(stranger), hive, 'DownstreamOf')
  await redis.zadd(strangerIn, 0, stranger)
  for (const urn of [ghost, hive]) assert.is((await svc.call('POST', '/operations?action=restoreIndices', { urn, batchSize: 100 }, bearer(admin))).status, 200)
  assert.not.ok((await search(svc, 'ghost')).entities.includes(ghost))
  assert.not.ok((await owned(svc, 'urn:svc:corpuser:jdoe')).includes(ghost))
  assert.not.ok((await owned(svc, 'urn:svc:corpuser:nobody')).includes(hive))
  assert.not.ok((await redis.zrange(strangerIn, 0, -1)).some((u) => u.includes('stranger')))
  assert.is(await redis.zscore(keys.entities(keys.shardOf(ghost)), ghost), null, 'the entity list no longer names it')
})

t('the orphan sweep finds, in one pass, the documents of every type whose entity has no rows', async ({ svc }) => {
  const { model } = svc.gateway
  const { redis, keys } = model
  const lost = ['urn:svc:dataset:(urn:svc:dataPlatform:hive,lostTable,PROD)', 'urn:svc:corpuser:lostUser', 'urn:svc:tag:lost:with:colons']
  const types = ['dataset', 'corpuser', 'tag']
  // Documents left behind (their entities' rows and aspects are gone), beside every real one.
  await Promise.all(lost.map((urn, i) => redis.hset(keys.doc(types[i]!, urn), 'urn', urn)))
  // A key under the documents' prefix of a type the registry does not know is not a document.
  await redis.hset(`${keys.documentsPrefix(keys.shardOf(hive))}noSuchType:urn:svc:x`, 'urn', 'x')
  try {
    const orphans = await orphanedUrns(model)
    assert.equal(orphans.sort(), [...lost].sort())
  } finally {
    await Promise.all([...lost.map((urn, i) => redis.del(keys.doc(types[i]!, urn))), redis.del(`${keys.documentsPrefix(keys.shardOf(hive))}noSuchType:urn:svc:x`)])
  }
})

t('start and batchSize count rows (each entity\'s aspects in name order), also inside an entity, filtered or not', async ({ svc }) => {
  const model = svc.gateway.model
  const { redis, keys } = model
  const urns = (await Promise.all(keys.allShards().map((shard) => redis.zrange(keys.entities(shard), 0, -1)))).flat()
  const every = (await Promise.all(urns.map(async (urn) => (await redis.hkeys(keys.latest(urn))).map((aspect): [string, string] => [urn, aspect])))).flat()
    .sort(([u1, a1], [u2, a2]) => (u1 === u2 ? (a1 < a2 ? -1 : 1) : u1 < u2 ? -1 : 1))
  assert.ok(every.length > 60, `${every.length} rows`)
  for (const [start, batchSize] of [[0, 5], [3, 4], [17, 9], [every.length - 2, 5], [every.length, 3]] as const) {
    const got = await selectRows(model, { start, batchSize })
    assert.equal(got.rows, every.slice(start, start + batchSize), `start ${start}`)
    assert.is(got.more, start + batchSize < every.length)
  }
  const owners = every.filter(([, aspect]) => aspect === 'ownership')
  assert.equal((await selectRows(model, { aspect: 'ownership', start: 2, batchSize: 3 })).rows, owners.slice(2, 5))
  const hiveRows = every.filter(([urn]) => urn.startsWith('urn:svc:dataset:(urn:svc:dataPlatform:hive,'))
  assert.equal((await selectRows(model, { urnLike: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,%', start: 1, batchSize: 4 })).rows, hiveRows.slice(1, 5))
  assert.equal((await selectRows(model, { urn: hive, start: 1, batchSize: 2 })).rows, every.filter(([urn]) => urn === hive).slice(1, 3))
})

t('a start that an answer gave as nextStart reads on from the row that batch ended at; any other start is walked to', async ({ svc, admin }) => {
  const { redis, keys } = svc.gateway.model
  const all = await svc.call('POST', '/operations?action=restoreIndices', { urnLike: 'urn:svc:dataPlatform:%', batchSize: 1000 }, bearer(admin))
  const total = all.body.value.result.rowsRestored as number
  const pages: number[] = []
  for (let start: number | null = 0; start !== null;) {
    const res = await svc.call('POST', '/operations?action=restoreIndices', { urnLike: 'urn:svc:dataPlatform:%', start, batchSize: 5 }, bearer(admin))
    pages.push(res.body.value.result.rowsRestored)
    start = res.body.value.result.nextStart
  }
  assert.is(pages.reduce((a, b) => a + b, 0), total, 'every row once')
  const continuations: string[] = []
  await scanKeys(redis, `${keys.prefix}restore:after:*`, async (found) => { continuations.push(...found) })
  assert.ok(continuations.length >= Math.floor(total / 5) - 1, `${continuations.length} continuations`)
  assert.ok(await redis.ttl(continuations[0]!) > 0, 'they expire')
  // Another start (not a nextStart of these filters) is walked to: the same rows.
  const walked = await svc.call('POST', '/operations?action=restoreIndices', { urnLike: 'urn:svc:dataPlatform:%', start: 7, batchSize: 5 }, bearer(admin))
  assert.is(walked.body.value.result.rowsRestored, 5)
  assert.is(walked.body.value.result.nextStart, 12)
})

t('a store of key layout 2 (a row list) is brought to layout 3 (an entity list) at start', async ({ svc }) => {
  const { redis, keys } = svc.gateway.model
  const listed = async () => (await Promise.all(keys.allShards().map((shard) => redis.zrange(keys.entities(shard), 0, -1)))).flat().sort()
  const before = await listed()
  // Layout 2: no entity list, a row per latest aspect.
  for (const shard of keys.allShards()) {
    const urns = await redis.zrange(keys.entities(shard), 0, -1)
    const rows = (await Promise.all(urns.map(async (urn) => (await redis.hkeys(keys.latest(urn))).map((aspect) => `${urn}\u0000${aspect}`)))).flat()
    await redis.del(keys.entities(shard))
    for (let i = 0; i < rows.length; i += 500) await redis.zadd(keys.rowList(shard), ...rows.slice(i, i + 500).flatMap((row) => ['0', row]))
  }
  await redis.hset(keys.layout(), 'version', '2')
  await ensureLayout(redis, keys)
  assert.is(await redis.hget(keys.layout(), 'version'), String(LAYOUT_VERSION))
  assert.equal(await listed(), before)
  for (const shard of keys.allShards()) assert.is(await redis.exists(keys.rowList(shard)), 0)
  // A row list written again (a process of the version before, still running) is folded in at the next start.
  const late = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,lateRow,PROD)'
  await redis.zadd(keys.rowList(keys.shardOf(late)), 0, `${late}\u0000datasetKey`)
  await ensureLayout(redis, keys)
  assert.ok((await listed()).includes(late))
  await redis.zrem(keys.entities(keys.shardOf(late)), late)
})

t('restore writes a RESTATE change-log entry per row', async ({ svc, admin }) => {
  const redis = svc.gateway.model.redis
  const stream = svc.gateway.model.keys.changeLog(svc.gateway.model.keys.shardOf(hive))
  const last = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1))[0]![0]
  await svc.call('POST', '/operations?action=restoreIndices', { urn: hive, aspect: 'ownership' }, bearer(admin))
  const added = await redis.xrange(stream, `(${last}`, '+')
  assert.is(added.length, 1)
  const fields = added[0]![1]
  assert.is(fields[fields.indexOf('changeType') + 1], 'RESTATE')
  assert.is(fields[fields.indexOf('aspectName') + 1], 'ownership')
})

t('rollback of a run: updated aspects go back, created ones go away', async ({ svc, admin }) => {
  const user = 'urn:svc:corpuser:rollback-me'
  const write = (info: unknown, runId: string) => svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'corpuser', entityUrn: user, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify(info), contentType: 'application/json' }, systemMetadata: { runId } } })
  await write({ active: true, displayName: 'Before' }, 'run-a')
  await write({ active: true, displayName: 'During' }, 'run-b')
  await svc.call('POST', '/entities?action=ingest', { entity: { value: { 'com.svc.metadata.snapshot.DatasetSnapshot': { urn: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,from_run_b,PROD)', aspects: [{ 'com.svc.common.Status': { removed: false } }] } } }, systemMetadata: { runId: 'run-b' } })
  assert.is((await svc.call('POST', '/operations?action=rollback', { runId: 'run-b' })).status, 401)
  const dry = await svc.call('POST', '/operations?action=rollback', { runId: 'run-b', dryRun: true }, bearer(admin))
  assert.is(dry.body.value.entities.length, 2)
  const res = await svc.call('POST', '/operations?action=rollback', { runId: 'run-b' }, bearer(admin))
  assert.is(res.status, 200)
  assert.is(res.body.value.entities, 2)
  const info = await svc.call('GET', `/aspects/${encodeURIComponent(user)}?aspect=corpUserInfo&version=0`)
  assert.is(info.body.aspect['com.svc.identity.CorpUserInfo'].displayName, 'Before')
  assert.is((await svc.call('GET', `/aspects/${encodeURIComponent(user)}?aspect=corpUserInfo&version=1`)).status, 404)
  const gone = await svc.call('GET', `/entitiesV2/${encodeURIComponent('urn:svc:dataset:(urn:svc:dataPlatform:hive,from_run_b,PROD)')}`)
  assert.equal(Object.keys(gone.body.aspects), ['datasetKey'])
  assert.not.ok((await search(svc, 'from_run_b')).entities.length)
})

t('with AUTH_ENABLED every route needs a token; a read token cannot write', async () => {
  const svc = await startService({ authEnabled: true })
  try {
    const read = await tokenFor(svc, 'read')
    const write = await tokenFor(svc, 'write')
    const urn = encodeURIComponent('urn:svc:corpuser:x')
    assert.is((await svc.call('GET', `/entitiesV2/${urn}`)).status, 401)
    assert.is((await svc.call('GET', `/entitiesV2/${urn}`, undefined, bearer(read))).status, 200)
    const body = { proposal: { entityType: 'corpuser', entityUrn: 'urn:svc:corpuser:x', changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } } }
    const denied = await svc.call('POST', '/aspects?action=ingestProposal', body, bearer(read))
    assert.is(denied.status, 403)
    assert.is(denied.body.code, 'FORBIDDEN')
    assert.is((await svc.call('POST', '/aspects?action=ingestProposal', body, bearer(write))).status, 200)
    const created = (await svc.call('GET', `/entitiesV2/${urn}`, undefined, bearer(read))).body.aspects.status.created
    assert.is(created.actor, 'urn:svc:corpuser:test-write')
  } finally {
    await svc.close()
  }
})

t('tokens are stored hashed, expire, and can be revoked', async ({ svc }) => {
  const { TokenStore, hashToken } = await import('../../model/services/tokens.ts')
  const store = new TokenStore(svc.gateway.model.redis, svc.gateway.model.keys)
  const { token, record } = await store.create('ops', 'admin', 1)
  const raw = JSON.stringify(await svc.gateway.model.redis.hgetall(svc.gateway.model.keys.tokens()))
  assert.not.ok(raw.includes(token))
  assert.ok(raw.includes(hashToken(token)))
  await new Promise((r) => setTimeout(r, 5))
  assert.is(await store.verify(token), undefined, 'expired')
  const live = await store.create('ops', 'admin')
  assert.ok(await store.verify(live.token))
  assert.ok(await store.revoke(live.record.id))
  assert.is(await store.verify(live.token), undefined)
  assert.ok(record.id.length > 0)
})

t.run()
