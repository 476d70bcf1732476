/**
 * Redis crash: with the append-only file on and `appendfsync always`, redis-server is killed with SIGKILL under
 * load and started again. No acknowledged write is missing; clients saw errors, not false acknowledgements; the
 * service reconnects by itself.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { finishWriters, FULL, startCluster, writeUntil, type Cluster, type WriteRecord } from '../helpers/faults.ts'
import { httpCall } from '../helpers/service.ts'

/** How long redis-server stays down after each crash: short outages, and one longer than WRITE_TIMEOUT_MS (15 s). */
const DOWN_MS = FULL ? [500, 2000, 5000, 500, 10_000, 20_000] : [1000]
const CRASHES = DOWN_MS.length
const ENTITIES = FULL ? 12 : 6
const t = suite<{ cluster: Cluster }>('faults: Redis crash')
t.before(async (ctx) => { ctx.cluster = await startCluster(1, { WRITE_TIMEOUT_MS: '15000', CHANGELOG_MAXLEN: '100000000' }) })
t.after(async (ctx) => { await ctx.cluster.stop() })

t(`kill -9 redis-server ${CRASHES} time(s) under load: every acknowledged write survives`, async ({ cluster }) => {
  let stop = false
  const writers: Promise<WriteRecord>[] = Array.from({ length: ENTITIES }, (_, e) => writeUntil(() => cluster.url, `urn:svc:corpuser:redis-crash-${e}`, () => stop))
  const recoveries: number[] = []
  for (let c = 0; c < CRASHES; c++) {
    await new Promise((r) => setTimeout(r, 1500))
    await cluster.crashRedis(DOWN_MS[c]!)
    const restarted = Date.now()
    // Recovered: a write through the service is acknowledged again.
    for (let n = 0; ; n++) {
      const res = await httpCall(cluster.url, 'POST', '/aspects?action=ingestProposal', {
        proposal: { entityType: 'tag', entityUrn: `urn:svc:tag:probe-${c}-${n}`, changeType: 'UPSERT', aspectName: 'tagProperties', aspect: { value: '{"name":"probe"}', contentType: 'application/json' } },
      }).catch(() => ({ status: 0 }))
      if (res.status === 200) break
      assert.ok(Date.now() - restarted < 60_000, 'the service came back within a minute')
      await new Promise((r) => setTimeout(r, 100))
    }
    recoveries.push(Date.now() - restarted)
  }
  await new Promise((r) => setTimeout(r, 1500))
  const { acked, found, errors, failures, problems } = await finishWriters(cluster, writers, () => { stop = true })
  assert.equal(problems, [])
  console.log(`redis crash: ${CRASHES} crash(es), ${acked} writes acknowledged, ${found} found, ${errors} client errors${errors ? ` (${failures})` : ''}, down ${DOWN_MS.join(', ')} ms, writes acknowledged again ${recoveries.map((ms) => `${ms} ms`).join(', ')} after each restart`)
  assert.is(found, acked)
  const ready = await httpCall(cluster.url, 'GET', '/ready')
  assert.is(ready.status, 200, 'ready again')
})

t.run()
