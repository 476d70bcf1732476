/**
 * The physical limits each service figure is compared with, measured in the same run: raw Redis through the
 * same client, an EVALSHA of the apply script with a typical op list, a bare BullMQ round trip, a bare Restify
 * route.
 */
import { Queue, QueueEvents } from 'bullmq'
import { Redis } from 'ioredis'
import { LuaScript } from '../../model/store/script.ts'
import { encodeOps, type Op } from '../../model/store/ops.ts'
import { runLoad, type LoadResult } from './load.ts'
import { startChild } from './processes.ts'
import { percentile } from './stats.ts'

const applyScript = new LuaScript(import.meta.url, '../../model/store/scripts/apply.lua')

/** Pipelined HSETs through ioredis: ops/s. */
export async function rawPipelinedHset(url: string, total = 200_000): Promise<number> {
  const redis = new Redis(url)
  const started = performance.now()
  for (let i = 0; i < total; i += 1000) {
    const pipeline = redis.pipeline()
    for (let k = i; k < i + 1000; k++) pipeline.hset(`bench:raw:${k % 10_000}`, 'f', `v${k}`)
    await pipeline.exec()
  }
  const perSecond = total / ((performance.now() - started) / 1000)
  await redis.del(...Array.from({ length: 10_000 }, (_, k) => `bench:raw:${k}`))
  redis.disconnect()
  return perSecond
}

/** The apply script with a typical proposal's op list (about 20 ops), `clients` calls in flight: calls/s. */
export async function evalshaApply(url: string, clients: number, total = 50_000): Promise<number> {
  const redis = new Redis(url)
  // One shard's keys (one hash tag), as a real apply's: entity keys, entity list, document, postings, change log.
  const ops = (k: number): Op[] => [
    ['HSET', `bench:e:{s0}:a:${k}`, 'datasetProperties', JSON.stringify({ value: { name: `n${k}`, description: 'd'.repeat(80) } })],
    ['ZADD', 'bench:e:{s0}:entities', '0', `urn${k}`],
    ['HSET', `bench:e:{s0}:doc:${k}`, 'urn', `urn${k}`, 'd', '{"name":["n"]}'],
    ...Array.from({ length: 8 }, (_, t): Op => ['ZLINK', `bench:e:{s0}:tok:t${t}`, '1', `urn${k}`, 'bench:e:{s0}:toks', `t${t}`]),
    ...Array.from({ length: 6 }, (_, t): Op => ['LINK', `bench:e:{s0}:kw:f${t}`, `urn${k}`, 'bench:e:{s0}:vals', `v${t}`]),
    ['XADD', 'bench:e:{s0}:mcl', 'MAXLEN', '~', '10000', '*', 'aspect', 'x'.repeat(200)],
  ]
  let issued = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: clients }, async () => {
    while (issued < total) {
      const k = issued++
      const meta = `bench:e:{s0}:m:${k % 5000}`
      const rev = await redis.hget(meta, 'rev')
      const encoded = encodeOps([meta], ops(k % 5000))
      await applyScript.run(redis, encoded.keys, [rev ?? '0', '', encoded.ops])
    }
  }))
  const perSecond = total / ((performance.now() - started) / 1000)
  const keys = await redis.keys('bench:e:*')
  for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000))
  redis.disconnect()
  return perSecond
}

/** Add an empty job, have a worker process complete it, wait for the completion: jobs/s and latency at `clients`. */
export async function bareBullmq(url: string, clients: number[], total = 6000): Promise<Record<number, LoadResult>> {
  const partitions = 16
  const worker = await startChild('ops/bench/bareWorker.ts', { REDIS_URL: url, PARTITIONS: String(partitions) }, /bare workers ready/)
  const connection = new Redis(url, { maxRetriesPerRequest: null })
  const queues = Array.from({ length: partitions }, (_, p) => new Queue(`bare-${p}`, { connection, prefix: 'bench', defaultJobOptions: { removeOnComplete: { age: 60 }, removeOnFail: true } }))
  // Each QueueEvents reads on a connection of its own, closed here after it (closing one leaves a given connection open).
  const eventConnections = queues.map(() => connection.duplicate())
  const events = queues.map((_, p) => new QueueEvents(`bare-${p}`, { connection: eventConnections[p]!, prefix: 'bench' }))
  await Promise.all([...queues.map((q) => q.setGlobalConcurrency(1)), ...events.map((e) => e.waitUntilReady())])
  const results: Record<number, LoadResult> = {}
  for (const c of clients) {
    const n = c === 1 ? Math.min(total, 2000) : total
    const latencies: number[] = []
    let issued = 0
    const started = performance.now()
    await Promise.all(Array.from({ length: c }, async () => {
      while (issued < n) {
        const i = issued++
        const t0 = performance.now()
        const job = await queues[i % partitions]!.add('bare', { i })
        await job.waitUntilFinished(events[i % partitions]!, 30_000)
        latencies.push(performance.now() - t0)
      }
    }))
    const seconds = (performance.now() - started) / 1000
    results[c] = { requests: n, seconds, perSecond: n / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors: 0 }
  }
  await Promise.all([...events.map((e) => e.close()), ...queues.map((q) => q.obliterate({ force: true }).then(() => q.close()))])
  for (const c of eventConnections) c.disconnect()
  connection.disconnect()
  await worker.stop()
  return results
}

/** GET of a constant from a bare Restify process: req/s and latency at `clients`. */
export async function bareRestify(clients: number, total = 40_000): Promise<LoadResult> {
  const child = await startChild('ops/bench/bareRestify.ts', {}, /listening \d+/)
  const port = Number(/listening (\d+)/.exec(child.output)![1])
  try {
    return await runLoad(`http://127.0.0.1:${port}`, clients, total, () => ({ method: 'GET', path: '/constant' }))
  } finally {
    await child.stop()
  }
}
