/**
 * Overload: with no worker draining the queues, writes beyond MAX_QUEUE_DEPTH get 503 with Retry-After instead of
 * piling up, while reads keep answering; once a worker runs, the backlog drains and writes are accepted again.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startCluster, type Cluster } from '../helpers/faults.ts'
import { httpCall } from '../helpers/service.ts'

/** A gateway process with a small bound and no worker process (yet). */
const t = suite<{ cluster: Cluster }>('faults: overload')
t.before(async (ctx) => { ctx.cluster = await startCluster(0, { MAX_QUEUE_DEPTH: '20', WRITE_TIMEOUT_MS: '60000' }) })
t.after(async (ctx) => { await ctx.cluster.stop() })

const write = (cluster: Cluster, i: number) => httpCall(cluster.url, 'POST', '/aspects?action=ingestProposal', {
  proposal: { entityType: 'corpuser', entityUrn: `urn:svc:corpuser:overload-${i}`, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } },
})

t('beyond the bound, writes get 503 + Retry-After; reads keep answering; the backlog drains', async ({ cluster }) => {
  type Answer = Awaited<ReturnType<typeof write>>
  const pending: Promise<Answer>[] = []
  let refused: Answer | undefined
  let refusals = 0
  // Keep writing well past the first refusal: the held writes must stay bounded, not pile up.
  for (let i = 0; i < 600 && refusals < 200; i++) {
    const res = write(cluster, i)
    pending.push(res)
    const quick = await Promise.race([res, new Promise<undefined>((r) => setTimeout(() => r(undefined), 5))])
    if (quick?.status === 503) {
      refused ??= quick
      refusals++
    }
  }
  assert.ok(refused, 'a write was refused')
  assert.is(refused!.body.code, 'OVERLOADED')
  assert.is(refused!.body.status, 503)
  assert.ok(Number(refused!.headers.get('retry-after')) >= 1)
  // Reads are not queued: they answer at once.
  const read = await httpCall(cluster.url, 'GET', `/entitiesV2/${encodeURIComponent('urn:svc:corpuser:overload-0')}`)
  assert.is(read.status, 200)
  assert.is((await httpCall(cluster.url, 'POST', '/entities?action=search', { input: '*', entity: 'corpuser', start: 0, count: 1 })).status, 200)
  // A worker drains the backlog; every write held so far is applied and answered.
  const started = Date.now()
  await cluster.addWorker()
  const statuses = await Promise.all(pending)
  const accepted = statuses.filter((r) => r.status === 200).length
  console.log(`overload: ${pending.length} writes sent with no worker, ${statuses.filter((r) => r.status === 503).length} refused with 503, ${accepted} applied once a worker process started (backlog drained ${Date.now() - started} ms after its start)`)
  assert.ok(accepted >= 20)
  const bound = Number(cluster.env.PARTITIONS) * (Number(cluster.env.MAX_QUEUE_DEPTH) + 2)
  assert.ok(accepted <= bound, `at most about MAX_QUEUE_DEPTH writes held per partition (${accepted} <= ${bound})`)
  await new Promise((r) => setTimeout(r, 500))
  assert.is((await write(cluster, 10_000)).status, 200, 'writes are accepted again')
})

t.run()
