/**
 * Worker crash: under a steady stream of synchronous writes, worker processes are killed with SIGKILL mid-job,
 * again and again. Afterwards every acknowledged write is stored exactly once, in order; in-flight jobs were
 * found stalled, retried and applied once.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { finishWriters, FULL, startCluster, writeUntil, type Cluster } from '../helpers/faults.ts'
import { percentile } from '../../ops/bench/stats.ts'

const KILLS = FULL ? 20 : 2
const ENTITIES = FULL ? 16 : 6
const t = suite<{ cluster: Cluster }>('faults: worker crash')
t.before(async (ctx) => { ctx.cluster = await startCluster(2) })
t.after(async (ctx) => { await ctx.cluster.stop() })

t(`kill -9 a worker ${KILLS} times under load: nothing acknowledged is lost or doubled`, async ({ cluster }) => {
  let stop = false
  const writers = Array.from({ length: ENTITIES }, (_, e) => writeUntil(() => cluster.url, `urn:svc:corpuser:crash-${e}`, () => stop))
  for (let k = 0; k < KILLS; k++) {
    await new Promise((r) => setTimeout(r, 700))
    const victim = cluster.workers.shift()!
    await victim.kill('SIGKILL')
    await cluster.addWorker()
  }
  await new Promise((r) => setTimeout(r, 1500))
  const { records, acked, found, errors, problems } = await finishWriters(cluster, writers, () => { stop = true })
  assert.equal(problems, [])
  const latencies = records.flatMap((r) => r.latencies)
  console.log(`worker crash: ${KILLS} kills, ${acked} writes acknowledged, ${found} found, ${errors} client errors, ` +
    `latency p50 ${percentile(latencies, 50).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(0)} ms (the stalled-job recovery)`)
  assert.is(found, acked)
  assert.ok(acked > ENTITIES * 5, `enough writes happened (${acked})`)
})

t.run()
