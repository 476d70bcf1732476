/**
 * Worker crash: under a steady stream of synchronous writes, worker processes are killed with SIGKILL mid-job,
 * again and again. Afterwards every acknowledged write is stored exactly once, in order; the jobs the dead
 * workers held were found stalled, retried and applied once (the change log has one entry per stored version).
 *
 * A kill counts as mid-job when a job it could have held was later found stalled (BullMQ's `stc` > 0): two
 * workers run, so about half the attempts hit the holder; the test tries until it has KILLS such kills.
 *
 * The cluster runs the default lock (LOCK_DURATION_MS) and stalled check (STALLED_INTERVAL_MS): a killed worker's
 * job must be applied again within about 3 s, every write must be answered within 10 s (ANSWER_WITHIN_MS), and a
 * live worker under load must never lose its job to the stalled check (its lock is renewed).
 */
import type { RedisClient } from '../../model/store/redis.ts'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { activeJobs, queueKey, ANSWER_WITHIN_MS, eventually, finishWriters, FULL, jobOutcome, startCluster, writeUntil, type Cluster, type QueuedJob } from '../helpers/faults.ts'
import { percentile } from '../../ops/bench/stats.ts'

const KILLS = FULL ? 20 : 2
const ENTITIES = FULL ? 16 : 6
const t = suite<{ cluster: Cluster }>('faults: worker crash')
t.before(async (ctx) => { ctx.cluster = await startCluster(2, { CHANGELOG_MAXLEN: '100000000' }) })
t.after(async (ctx) => { await ctx.cluster.stop() })

/** Jobs still kept as completed (BullMQ keeps them a minute) that were found stalled at least once. */
async function stalledCompleted(redis: RedisClient, cluster: Cluster): Promise<number> {
  let stalled = 0
  for (let p = 0; p < Number(cluster.env.PARTITIONS); p++) {
    for (const id of await redis.zrange(queueKey(cluster, p, 'completed'), 0, -1)) {
      if (Number(await redis.hget(queueKey(cluster, p, id), 'stc') ?? 0) > 0) stalled++
    }
  }
  return stalled
}

t('no kill, 16 writers: no job of a live worker is ever found stalled (lock renewal)', async ({ cluster }) => {
  const redis = cluster.connect()
  let stop = false
  const writers = Array.from({ length: 16 }, (_, e) => writeUntil(() => cluster.url, `urn:svc:corpuser:live-${e}`, () => stop))
  await new Promise((r) => setTimeout(r, FULL ? 20_000 : 5_000))
  const { acked, errors, problems } = await finishWriters(cluster, writers, () => { stop = true })
  const stalled = await stalledCompleted(redis, cluster)
  redis.disconnect()
  console.log(`worker crash: without kills, ${acked} writes acknowledged, ${stalled} jobs found stalled`)
  assert.equal(problems, [])
  assert.is(errors, 0)
  assert.is(stalled, 0, 'a live worker keeps its jobs')
})

t(`kill -9 a worker mid-job ${KILLS} times under load: nothing acknowledged is lost or doubled`, async ({ cluster }) => {
  const redis = cluster.connect()
  let stop = false
  const writers = Array.from({ length: ENTITIES }, (_, e) => writeUntil(() => cluster.url, `urn:svc:corpuser:crash-${e}`, () => stop))
  const recoveries: number[] = []
  let attempts = 0
  let stalledJobs = 0
  while (recoveries.length < KILLS) {
    assert.ok(++attempts <= KILLS * 10, `${KILLS} mid-job kills within ${KILLS * 10} attempts (got ${recoveries.length})`)
    await new Promise((r) => setTimeout(r, 300))
    let inFlight: QueuedJob[] = []
    await eventually(async () => (inFlight = await activeJobs(redis, cluster)).length > 0, 10_000, 'a job in flight')
    const victim = cluster.workers.shift()!
    await victim.kill('SIGKILL')
    const killedAt = Date.now()
    await cluster.addWorker()
    const retried: number[] = []
    for (const job of inFlight) {
      const outcome = await jobOutcome(redis, cluster, job)
      if (outcome && outcome.stalled > 0) retried.push(outcome.finishedOn - killedAt)
    }
    if (retried.length > 0) recoveries.push(Math.max(...retried))
    stalledJobs += retried.length
  }
  await new Promise((r) => setTimeout(r, 1000))
  const { records, acked, found, errors, failures, problems } = await finishWriters(cluster, writers, () => { stop = true })
  redis.disconnect()
  assert.equal(problems, [])
  const latencies = records.flatMap((r) => r.latencies)
  const longest = Math.max(...latencies)
  console.log(`worker crash: ${attempts} kills, ${recoveries.length} of them mid-job (${stalledJobs} jobs retried); ${acked} writes acknowledged, ${found} found, ${errors} client errors${errors ? ` (${failures})` : ''}; ` +
    `in-flight jobs applied ${percentile(recoveries, 50).toFixed(0)} ms (median), ${Math.max(...recoveries).toFixed(0)} ms (max) after the kill; ` +
    `write latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms; longest write ${(longest / 1000).toFixed(2)} s`)
  assert.is(found, acked)
  assert.is(errors, 0, `a worker crash only delays writes, each answered within ${ANSWER_WITHIN_MS} ms (${failures})`)
  assert.ok(Math.max(...recoveries) < 5_000, `a killed worker's job is applied again within about 3 s (slowest: ${Math.max(...recoveries)} ms)`)
  assert.ok(acked > ENTITIES * 5, `enough writes happened (${acked})`)
})

t.run()
