/**
 * Overload: with no worker draining the queues, writes beyond MAX_QUEUE_DEPTH get 503 with Retry-After instead of
 * piling up, while reads keep answering; once a worker runs, the backlog drains and writes are accepted again.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createLogger } from '../../model/log.ts'
import { startWorkers, type RunningWorkers } from '../../workers/start.ts'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService; workers?: RunningWorkers }>('faults: overload')
t.before(async (ctx) => { ctx.svc = await startService({ maxQueueDepth: 20, partitions: 2, writeTimeoutMs: 60_000 }, { workers: false }) })
t.after(async (ctx) => {
  await ctx.workers?.close()
  await ctx.svc.close()
})

const write = (svc: TestService, i: number) => svc.call('POST', '/aspects?action=ingestProposal', {
  proposal: { entityType: 'corpuser', entityUrn: `urn:svc:corpuser:overload-${i}`, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } },
})

t('beyond the bound, writes get 503 + Retry-After; reads keep answering; the backlog drains', async (ctx) => {
  const { svc } = ctx
  type Answer = Awaited<ReturnType<typeof write>>
  const pending: Promise<Answer>[] = []
  let refused: Answer | undefined
  for (let i = 0; i < 400 && !refused; i++) {
    const res = write(svc, i)
    pending.push(res)
    const quick = await Promise.race([res, new Promise<undefined>((r) => setTimeout(() => r(undefined), 5))])
    if (quick?.status === 503) refused = quick
  }
  assert.ok(refused, 'a write was refused')
  assert.is(refused!.body.code, 'OVERLOADED')
  assert.is(refused!.body.status, 503)
  assert.ok(Number(refused!.headers.get('retry-after')) >= 1)
  // Reads are not queued: they answer at once.
  const read = await svc.call('GET', `/entitiesV2/${encodeURIComponent('urn:svc:corpuser:overload-0')}`)
  assert.is(read.status, 200)
  assert.is((await svc.call('POST', '/entities?action=search', { input: '*', entity: 'corpuser', start: 0, count: 1 })).status, 200)
  // A worker drains the backlog; every write held so far is applied and answered.
  ctx.workers = await startWorkers(svc.config, createLogger('silent', 'test'))
  const statuses = await Promise.all(pending)
  const accepted = statuses.filter((r) => r.status === 200).length
  console.log(`overload: ${pending.length} writes sent with no worker, ${statuses.filter((r) => r.status === 503).length} refused with 503, ${accepted} applied once a worker started`)
  assert.ok(accepted >= 20)
  await new Promise((r) => setTimeout(r, 500))
  assert.is((await write(svc, 10_000)).status, 200, 'writes are accepted again')
})

t.run()
