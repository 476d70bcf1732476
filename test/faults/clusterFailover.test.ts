/**
 * Redis Cluster failover under load (runs in the cluster pass): a local cluster of 3 masters and 3 replicas with
 * append-only files and a 1 s node timeout, the service on 16 shards with REPLICA_ACKS=1 (an apply counts once a
 * replica acknowledged it). While writers write without pause, a master is SIGKILLed; the test waits until the
 * survivors have promoted its replica, then starts the killed node again, which joins as that replica; writes
 * resume by themselves. Afterwards every acknowledged write is stored exactly once, in each entity's order: none
 * lost, none doubled; every write a client saw fail got a 503 with a code (none a 500, none unanswered). It prints
 * when the replica was promoted and when every writer had a write acknowledged again.
 * FAILOVER_LOG=1 prints the service's errors (what a failure was, when one is not a 503).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { FULL, historyProblems, storedValues, writeUntil, type WriteRecord } from '../helpers/faults.ts'
import { startRedisCluster, type LocalCluster } from '../../ops/localCluster.ts'
import { httpCall, onCluster, startService, type TestService } from '../helpers/service.ts'

const KILLS = FULL ? 3 : 1
const ENTITIES = FULL ? 16 : 8
/** The cluster's node timeout: failure detection takes about that long, so recovery is bounded by it (README). */
const NODE_TIMEOUT_MS = 1000
const t = suite<{ cluster: LocalCluster; svc: TestService }>('faults: Redis Cluster failover')

if (!onCluster()) {
  t.skip('runs in the cluster pass only', () => {})
} else {
  t.before(async (ctx) => {
    ctx.cluster = await startRedisCluster({ appendOnly: true, nodeTimeoutMs: NODE_TIMEOUT_MS })
    ctx.svc = await startService({ redisUrl: '', redisCluster: ctx.cluster.seeds.split(','), shards: 16, replicaAcks: 1, replicaAckTimeoutMs: 1000, writeTimeoutMs: 30_000, partitions: 8, ...(process.env.FAILOVER_LOG ? { logLevel: 'error' as const } : {}) })
  })
  t.after(async (ctx) => {
    await ctx.svc?.close()
    await ctx.cluster?.stop()
  })

  t(`SIGKILL a master ${KILLS} time(s) under load: its replica takes over, nothing acknowledged is lost or doubled`, async ({ cluster, svc }) => {
    let stop = false
    const writers: Promise<WriteRecord>[] = Array.from({ length: ENTITIES }, (_, e) => writeUntil(() => svc.url, `urn:svc:corpuser:failover-${e}`, () => stop))
    const kills: { at: number; promoted: number }[] = []
    for (let k = 0; k < KILLS; k++) {
      await new Promise((r) => setTimeout(r, 2000))
      const masters = await cluster.masterPorts()
      const victim = masters[0]!
      await cluster.kill(victim)
      const at = Date.now()
      // The survivors notice the kill after the node timeout and promote the victim's replica. The victim then comes
      // back (as a supervisor restarts it) as that replica: with REPLICA_ACKS=1 its shard's writes need it.
      await cluster.waitPromoted(masters.length, 30_000)
      kills.push({ at, promoted: Date.now() - at })
      await cluster.restart(victim)
      for (let n = 0; ; n++) {
        const probe = await httpCall(svc.url, 'POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'corpuser', entityUrn: `urn:svc:corpuser:probe-${k}-${n % 32}`, changeType: 'UPSERT', aspectName: 'status', aspect: { value: `{"removed":false}`, contentType: 'application/json' } } })
        if (probe.status === 200 && n >= 32) break
        if (Date.now() - at > 60_000) assert.unreachable(`writes did not resume within 60 s (last: ${probe.status} ${JSON.stringify(probe.body)})`)
        if (probe.status !== 200) await new Promise((r) => setTimeout(r, 100))
      }
      await cluster.waitHealthy(30_000)
    }
    await new Promise((r) => setTimeout(r, 1500))
    stop = true
    const records = await Promise.all(writers)
    let acked = 0
    let found = 0
    let doubled = 0
    const problems: string[] = []
    for (const record of records) {
      const stored = await storedValues(svc.url, record.urn)
      problems.push(...historyProblems(record, stored).map((p) => `${record.urn}: ${p}`))
      acked += record.acked.size
      found += stored.filter((v) => record.acked.has(v)).length
      doubled += stored.length - new Set(stored).size
    }
    const errors = records.reduce((n, r) => n + r.errors, 0)
    const kinds = new Map<string, number>()
    for (const r of records) for (const [kind, n] of r.failures) kinds.set(kind, (kinds.get(kind) ?? 0) + n)
    // A kill's recovery: when every writer had a write sent after the kill acknowledged (the last of their first).
    const recovered = kills.map(({ at }) => Math.max(...records.map((r) => (r.acks.find((a) => a.sent > at)?.at ?? NaN) - at)))
    console.log(`cluster failover (node timeout ${NODE_TIMEOUT_MS} ms): ${KILLS} master kill(s), ${acked} writes acknowledged, ${found} found, ${acked - found} lost, ${doubled} doubled, ${errors} client errors while failing over (${[...kinds].map(([k, n]) => `${n}× ${k}`).join(', ') || 'none'}); replica promoted ${kills.map((k) => `${k.promoted} ms`).join(', ')} and every writer acknowledged again ${recovered.map((ms) => `${ms} ms`).join(', ')} after each kill`)
    assert.equal(problems, [])
    // Every failure a client met is a 503 saying what happened (CLUSTER_DOWN, NOT_REPLICATED, ...), never a 500.
    const said = (kind: string) => `${kind}: ${records.map((r) => r.messages.get(kind)).find(Boolean) ?? ''}`
    assert.equal([...kinds.keys()].filter((k) => !k.startsWith('503 ')).map(said), [], 'failures other than a 503 with a code')
    assert.is(found, acked)
    assert.is(doubled, 0)
    assert.ok(acked > ENTITIES * 5, `enough writes happened (${acked})`)
  })
}

t.run()
