/**
 * Soak: a steady mixed load (writes, entity reads, searches) for ten minutes (`npm run test:faults`; fifteen
 * seconds in `npm test`), sampling latency percentiles, errors, and the memory of every process each interval.
 * No errors; gateway and worker memory flat after warm-up. Writes replace timeseries points and re-write
 * statuses, and the change log is trimmed, so Redis holds a steady amount of data too.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { percentile } from '../../ops/bench/stats.ts'
import { FULL, rssKiB, startCluster, type Cluster } from '../helpers/faults.ts'
import { httpCall } from '../helpers/service.ts'

const DURATION_MS = FULL ? 10 * 60_000 : 15_000
const INTERVAL_MS = FULL ? 60_000 : 3_000
const RATE = 150 // requests per second, all clients together
const CLIENTS = 6
const ENTITIES = 100
const t = suite<{ cluster: Cluster }>('faults: soak')
t.before(async (ctx) => { ctx.cluster = await startCluster(1, { CHANGELOG_MAXLEN: '2000' }) })
t.after(async (ctx) => { await ctx.cluster.stop() })

const ds = (i: number) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,soak_${i % ENTITIES},PROD)`
const requests = [
  (i: number) => ({ weight: 10, method: 'POST', path: '/aspects?action=ingestProposal', body: { proposal: { entityType: 'dataset', entityUrn: ds(i), changeType: 'UPSERT', aspectName: 'datasetProfile', aspect: { value: JSON.stringify({ timestampMillis: 1_700_000_000_000 + (i % 20) * 60_000, rowCount: i }), contentType: 'application/json' } } } }),
  (i: number) => ({ weight: 10, method: 'POST', path: '/aspects?action=ingestProposal', body: { proposal: { entityType: 'dataset', entityUrn: ds(i), changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } } } }),
  (i: number) => ({ weight: 50, method: 'GET', path: `/entitiesV2/${encodeURIComponent(ds(i))}`, body: undefined }),
  (i: number) => ({ weight: 30, method: 'POST', path: '/entities?action=search', body: { input: i % 2 ? 'soak' : `soak ${i % ENTITIES}`, entity: 'dataset', start: 0, count: 10 } }),
]
const pick = (i: number) => {
  let r = (i * 7919) % 100
  for (const make of requests) {
    const req = make(i)
    if (r < req.weight) return req
    r -= req.weight
  }
  return requests[2]!(i)
}

t(`${DURATION_MS / 1000} s of mixed load: no errors, process memory flat after warm-up`, async ({ cluster }) => {
  for (let i = 0; i < ENTITIES; i++) {
    const res = await httpCall(cluster.url, 'POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: ds(i), changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ description: `soak entity ${i}` }), contentType: 'application/json' } } })
    assert.is(res.status, 200)
  }
  const redis = cluster.connect()
  const samples: { minute: number; requests: number; errors: number; p50: number; p99: number; gatewayMiB: number; workerMiB: number; redisMiB: number }[] = []
  let latencies: number[] = []
  let errors = 0
  let count = 0
  let issued = 0
  const started = Date.now()
  const sampler = setInterval(async () => {
    const used = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1])
    samples.push({
      minute: Math.round((Date.now() - started) / 1000), requests: count, errors,
      p50: percentile(latencies, 50), p99: percentile(latencies, 99),
      gatewayMiB: rssKiB(cluster.gateway.process.pid) / 1024, workerMiB: rssKiB(cluster.workers[0]!.process.pid) / 1024, redisMiB: used / 2 ** 20,
    })
    latencies = []
    count = 0
  }, INTERVAL_MS)
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (Date.now() - started < DURATION_MS) {
      const i = issued++
      // Steady pace: request i is due at i / RATE seconds.
      const due = started + (i * 1000) / RATE
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()))
      const req = pick(i)
      const t0 = performance.now()
      const res = await httpCall(cluster.url, req.method, req.path, req.body).catch(() => ({ status: 0 }))
      latencies.push(performance.now() - t0)
      count++
      if (res.status !== 200) errors++
    }
  }))
  clearInterval(sampler)
  redis.disconnect()
  console.log(`soak: ${issued} requests over ${DURATION_MS / 1000} s at ${RATE}/s (20% writes, 50% reads, 30% searches)`)
  console.log('| at s | requests | errors | p50 ms | p99 ms | gateway RSS MiB | worker RSS MiB | Redis used MiB |')
  for (const s of samples) {
    console.log(`| ${s.minute} | ${s.requests} | ${s.errors} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.gatewayMiB.toFixed(1)} | ${s.workerMiB.toFixed(1)} | ${s.redisMiB.toFixed(2)} |`)
  }
  assert.is(errors, 0)
  assert.ok(samples.length >= 3)
  const warm = samples[1]!
  const last = samples[samples.length - 1]!
  assert.ok(last.gatewayMiB <= warm.gatewayMiB * 1.5, `gateway memory flat (${warm.gatewayMiB.toFixed(1)} -> ${last.gatewayMiB.toFixed(1)} MiB)`)
  assert.ok(last.workerMiB <= warm.workerMiB * 1.5, `worker memory flat (${warm.workerMiB.toFixed(1)} -> ${last.workerMiB.toFixed(1)} MiB)`)
  assert.ok(last.redisMiB <= warm.redisMiB * 1.5, `Redis memory flat (${warm.redisMiB.toFixed(2)} -> ${last.redisMiB.toFixed(2)} MiB)`)
})

t.run()
