/**
 * Two worker processes share the partitions: 1,000 writes interleaved over 20 entities still apply one at a time
 * per entity, in order, each distinct write making exactly one version.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { spawnService, type ChildService } from '../helpers/processes.ts'
import { startService, type TestService, redisEnv } from '../helpers/service.ts'

const ENTITIES = 20
const WRITES_PER_ENTITY = 50
const t = suite<{ svc: TestService; workers: ChildService[] }>('two worker processes')

t.before(async (ctx) => {
  ctx.svc = await startService({ partitions: 8 }, { workers: false })
  const env = { ...redisEnv(ctx.svc.config), LOG_LEVEL: 'info' }
  ctx.workers = [spawnService('workers/main.ts', env), spawnService('workers/main.ts', env)]
  await Promise.all(ctx.workers.map((w) => w.waitFor(/workers running/)))
})
t.after(async (ctx) => {
  await Promise.all(ctx.workers.map((w) => w.kill()))
  await ctx.svc.close()
})

const urnOf = (e: number) => `urn:svc:corpuser:ordering-${e}`
const write = (svc: TestService, e: number, n: number) => svc.call('POST', '/aspects?action=ingestProposal', {
  proposal: { entityType: 'corpuser', entityUrn: urnOf(e), changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ active: true, displayName: `write-${n}` }), contentType: 'application/json' } },
})

t('1,000 interleaved writes: versions and latest values exact per entity', async ({ svc, workers }) => {
  // Each entity's writes go in order; the 20 entities interleave freely.
  await Promise.all(Array.from({ length: ENTITIES }, async (_, e) => {
    for (let n = 1; n <= WRITES_PER_ENTITY; n++) {
      const res = await write(svc, e, n)
      assert.is(res.status, 200, JSON.stringify(res.body))
    }
  }))
  for (let e = 0; e < ENTITIES; e++) {
    const urn = encodeURIComponent(urnOf(e))
    const latest = await svc.call('GET', `/aspects/${urn}?aspect=corpUserInfo&version=0`)
    assert.is(latest.body.aspect['com.svc.identity.CorpUserInfo'].displayName, `write-${WRITES_PER_ENTITY}`)
    const history = await svc.gateway.model.redis.hgetall(svc.gateway.model.keys.history(urnOf(e), 'corpUserInfo'))
    assert.is(Object.keys(history).length, WRITES_PER_ENTITY - 1, 'one version per distinct write')
    for (let v = 1; v < WRITES_PER_ENTITY; v++) {
      assert.is(JSON.parse(history[String(v)]!).value.displayName, `write-${v}`, `version ${v} of entity ${e}`)
    }
  }
  // Jobs may carry several writes (the gateway coalesces writes per partition): count the items, each job once (a
  // job found stalled on a loaded machine runs again, applying nothing the second time: the versions above show it).
  const jobs = new Map<string, number>()
  const perProcess = workers.map((w) => [...w.output().matchAll(/"msg":"job applied".*?"job":"([^"]+)".*?"items":(\d+)/g)].map((m) => { jobs.set(m[1]!, Number(m[2])); return m[1]! }))
  assert.is([...jobs.values()].reduce((a, b) => a + b, 0), ENTITIES * WRITES_PER_ENTITY)
  assert.ok(perProcess.every((ids) => ids.length > 0), `both processes applied jobs: ${perProcess.map((ids) => ids.length).join(', ')}`)
})

t.run()
