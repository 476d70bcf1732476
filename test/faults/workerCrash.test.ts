/**
 * Worker crash: under a steady stream of synchronous writes, worker processes are killed with SIGKILL mid-job,
 * again and again. Afterwards every acknowledged write is stored exactly once, in order; the jobs the dead
 * workers held were found stalled, retried and applied once (the change log has one entry per stored version).
 *
 * A kill counts as mid-job when a job it could have held was later found stalled (BullMQ's `stc` > 0): two
 * workers run, so about half the attempts hit the holder; the test tries until it has KILLS such kills.
 */
import { Redis } from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { activeJobs, eventually, finishWriters, FULL, jobOutcome, startCluster, writeUntil, type Cluster, type QueuedJob } from '../helpers/faults.ts'
import { percentile } from '../../ops/bench/stats.ts'

const KILLS = FULL ? 20 : 2
const ENTITIES = FULL ? 16 : 6
const t = suite<{ cluster: Cluster }>('faults: worker crash')
t.before(async (ctx) => { ctx.cluster = await startCluster(2, { CHANGELOG_MAXLEN: '100000000' }) })
t.after(async (ctx) => { await ctx.cluster.stop() })

t(`kill -9 a worker mid-job ${KILLS} times under load: nothing acknowledged is lost or doubled`, async ({ cluster }) => {
  const redis = new Redis(cluster.redis.url)
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
  const { records, acked, found, errors, problems } = await finishWriters(cluster, writers, () => { stop = true })
  redis.disconnect()
  assert.equal(problems, [])
  const latencies = records.flatMap((r) => r.latencies)
  console.log(`worker crash: ${attempts} kills, ${recoveries.length} of them mid-job (${stalledJobs} jobs retried); ${acked} writes acknowledged, ${found} found, ${errors} client errors; ` +
    `in-flight jobs applied ${percentile(recoveries, 50).toFixed(0)} ms (median), ${Math.max(...recoveries).toFixed(0)} ms (max) after the kill; ` +
    `write latency p50 ${percentile(latencies, 50).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(0)} ms`)
  assert.is(found, acked)
  assert.is(errors, 0, 'a worker crash only delays writes')
  assert.ok(acked > ENTITIES * 5, `enough writes happened (${acked})`)
})

t.run()
