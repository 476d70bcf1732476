/**
 * What the fault tests share: the service as real processes (a redis-server of the test's own, or the pass's
 * Redis Cluster; a gateway, worker processes) that can be killed and restarted, writers that record what was
 * acknowledged, and the check that every acknowledged write is stored exactly once, in order.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startEmbeddedRedis, type EmbeddedRedis } from '../../ops/embeddedRedis.ts'
import { spawnService, type ChildService } from './processes.ts'
import { readChanges } from '../../model/services/changeLog.ts'
import { queueName } from '../../model/jobs.ts'
import { Keys } from '../../model/store/keys.ts'
import { connectForRequests, type RedisClient } from '../../model/store/redis.ts'
import { httpCall, onCluster } from './service.ts'

/** The full forms run with `npm run test:faults` (FAULTS_FULL=1); `npm test` runs the short ones. */
export const FULL = process.env.FAULTS_FULL === '1'

export interface Cluster {
  /** The test's own redis-server; undefined on the cluster pass (the pass's Redis Cluster is used). */
  redis?: EmbeddedRedis
  url: string
  /** A new connection to the service's Redis (one server or the cluster); disconnect it when done. */
  connect(): RedisClient
  env: Record<string, string>
  gateway: ChildService
  workers: ChildService[]
  /** Starts another worker process. */
  addWorker(): Promise<ChildService>
  /** Starts a (new) gateway process on the same port. */
  restartGateway(): Promise<void>
  /** Kills redis-server with SIGKILL and starts it again on the same port and data folder. */
  crashRedis(downMs: number): Promise<void>
  stop(): Promise<void>
}

/**
 * Starts redis-server (append-only file, `appendfsync always`), or uses the pass's Redis Cluster (16 shards), then
 * a gateway process and `workers` worker processes.
 */
export async function startCluster(workers: number, env: Record<string, string> = {}): Promise<Cluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-faults-'))
  const redis = onCluster() ? undefined : await startEmbeddedRedis({ dataDir, appendFsync: 'always' })
  const where: Record<string, string> = redis ? { REDIS_URL: redis.url } : { REDIS_URL: '', REDIS_CLUSTER: process.env.TEST_REDIS_CLUSTER!, SHARDS: '16' }
  const port = await freePort()
  const base: Record<string, string> = {
    // The worker lock and stalled check are the defaults: the fault tests measure what a deployment gets.
    ...where, PORT: String(port), KEY_PREFIX: `f:${randomUUID().slice(0, 8)}:`, PARTITIONS: '4', LOG_LEVEL: 'warn',
    WRITE_TIMEOUT_MS: '30000', ...env,
  }
  const startGateway = async () => {
    const g = spawnService('gateway/main.ts', base)
    await g.waitFor(/gateway listening/)
    return g
  }
  const startWorker = async () => {
    const w = spawnService('workers/main.ts', base)
    await w.waitFor(/workers running/)
    return w
  }
  const cluster: Cluster = {
    redis, url: `http://127.0.0.1:${port}`, env: base,
    connect: () => connectForRequests({ redisUrl: base.REDIS_URL ?? '', redisCluster: (base.REDIS_CLUSTER ?? '').split(',').filter(Boolean) }, 'svc-faults'),
    gateway: await startGateway(),
    workers: [],
    async addWorker() {
      const w = await startWorker()
      cluster.workers.push(w)
      return w
    },
    async restartGateway() {
      await cluster.gateway.kill('SIGKILL')
      cluster.gateway = await startGateway()
    },
    async crashRedis(downMs) {
      if (!redis || !cluster.redis) throw new Error('crashRedis: the test has no redis-server of its own (cluster pass)')
      const server = cluster.redis
      const exited = new Promise<void>((r) => server.process.once('exit', () => r()))
      server.process.kill('SIGKILL')
      await exited
      await new Promise((r) => setTimeout(r, downMs))
      cluster.redis = await startEmbeddedRedis({ dataDir, appendFsync: 'always', port: redis.port })
    },
    async stop() {
      await Promise.all([cluster.gateway.kill(), ...cluster.workers.map((w) => w.kill())])
      await cluster.redis?.stop()
    },
  }
  for (let i = 0; i < workers; i++) await cluster.addWorker()
  return cluster
}

/** What one writer sent to its entity, in order, and which were acknowledged. */
export interface WriteRecord {
  urn: string
  sent: string[]
  acked: Set<string>
  /** When each acknowledged write was sent and when its acknowledgement came (Date.now()), in order. */
  acks: { sent: number; at: number }[]
  errors: number
  /** The errors by status and code (`503 WRITE_NOT_CONFIRMED`; `0` when no answer came within ANSWER_WITHIN_MS). */
  failures: Map<string, number>
  /** The first message of each kind of failure (what a 500 said, for the report). */
  messages: Map<string, string>
  latencies: number[]
}

/** The proposal setting a user's display name (each write's value is unique). */
export function displayNameProposal(urn: string, value: string) {
  return { proposal: { entityType: 'corpuser', entityUrn: urn, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ active: true, displayName: value }), contentType: 'application/json' } } }
}

/** How long a writer waits for an answer before it counts the write as unanswered (status 0). */
export const ANSWER_WITHIN_MS = 10_000

/** POSTs a proposal; status 0 when no answer came within ANSWER_WITHIN_MS (or the connection failed). */
async function postProposal(base: string, body: unknown): Promise<{ status: number; body: any }> {
  try {
    const res = await fetch(`${base}/aspects?action=ingestProposal`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    })
    const text = await res.text()
    let parsed: unknown
    try { parsed = JSON.parse(text) } catch { /* not JSON */ }
    return { status: res.status, body: parsed }
  } catch {
    return { status: 0, body: undefined }
  }
}

/**
 * Writes to `urn` one write at a time until `until()` says stop; errors (and writes not answered within
 * ANSWER_WITHIN_MS) are counted, never retried.
 */
export async function writeUntil(baseUrl: () => string, urn: string, until: () => boolean): Promise<WriteRecord> {
  const record: WriteRecord = { urn, sent: [], acked: new Set(), acks: [], errors: 0, failures: new Map(), messages: new Map(), latencies: [] }
  for (let n = 1; !until(); n++) {
    const value = `${urn.split(':').pop()}-${n}`
    record.sent.push(value)
    const t0 = performance.now()
    const sent = Date.now()
    const res = await postProposal(baseUrl(), displayNameProposal(urn, value))
    record.latencies.push(performance.now() - t0)
    if (res.status === 200) {
      record.acked.add(value)
      record.acks.push({ sent, at: Date.now() })
    } else {
      record.errors++
      const kind = `${res.status}${res.body?.code ? ` ${res.body.code}` : ''}`
      record.failures.set(kind, (record.failures.get(kind) ?? 0) + 1)
      if (!record.messages.has(kind)) record.messages.set(kind, String(res.body?.message ?? JSON.stringify(res.body)).slice(0, 300))
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return record
}

/** Every stored version of the user's display name, oldest first (version 1 .. n, then 0, the latest). */
export async function storedValues(baseUrl: string, urn: string): Promise<string[]> {
  const read = async (v: number) => {
    const res = await httpCall(baseUrl, 'GET', `/aspects/${encodeURIComponent(urn)}?aspect=corpUserInfo&version=${v}`)
    return res.status === 200 ? (res.body.aspect['com.svc.identity.CorpUserInfo'].displayName as string) : undefined
  }
  const values: string[] = []
  for (let v = 1; ; v++) {
    const value = await read(v)
    if (value === undefined) break
    values.push(value)
  }
  const latest = await read(0)
  if (latest !== undefined) values.push(latest)
  return values
}

/**
 * Problems with what is stored for a writer (empty: fine): every acknowledged write is there exactly once, and
 * the stored writes are a subsequence of what was sent, in order (an unacknowledged write may be there or not).
 */
export function historyProblems(record: WriteRecord, stored: string[]): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const v of stored) {
    if (seen.has(v)) problems.push(`${v} stored twice`)
    seen.add(v)
  }
  for (const v of record.acked) if (!seen.has(v)) problems.push(`acknowledged ${v} is missing`)
  let at = -1
  for (const v of stored) {
    const i = record.sent.indexOf(v)
    if (i < 0) problems.push(`${v} was never sent`)
    else if (i <= at) problems.push(`${v} is out of order`)
    else at = i
  }
  return problems
}

/** Waits until `check` holds (polling), or throws after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Resident memory of a process in KiB (Linux), or NaN. */
export function rssKiB(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN)
  } catch {
    return NaN
  }
}

/** A key of partition `p`'s write queue (BullMQ's `<prefix>:<queue>:<suffix>`). */
export function queueKey(cluster: Cluster, p: number, suffix: string): string {
  return `${cluster.env.KEY_PREFIX}q:${queueName(p)}:${suffix}`
}

/** Waits until no write job is waiting or active in any partition queue. */
export async function drained(cluster: Cluster, timeoutMs = 60_000): Promise<void> {
  const redis = cluster.connect()
  try {
    await eventually(async () => {
      const counts = await Promise.all(Array.from({ length: Number(cluster.env.PARTITIONS) }, async (_, p) =>
        (await redis.llen(queueKey(cluster, p, 'wait'))) + (await redis.llen(queueKey(cluster, p, 'active')))))
      return counts.every((n) => n === 0)
    }, timeoutMs, 'the write queues to drain')
  } finally {
    redis.disconnect()
  }
}

/**
 * The display names each user's change log holds, oldest first: one entry per applied change, so a job applied
 * twice (a retry that was not a no-op) would show here even where the versions look right.
 */
export async function changeLogNames(cluster: Cluster): Promise<Map<string, string[]>> {
  const redis = cluster.connect()
  try {
    const byUrn = new Map<string, string[]>()
    // The service runs with its default shard count (1 on one server): every shard's stream, merged.
    for (const { fields: entry } of await readChanges(redis, new Keys(cluster.env.KEY_PREFIX!, Number(cluster.env.SHARDS ?? 1)), new Map(), 100_000_000)) {
      if (entry.aspectName !== 'corpUserInfo' || entry.changeType !== 'UPSERT') continue
      const aspect = JSON.parse(entry.aspect!) as { displayName?: string; value?: { displayName?: string } }
      const name = aspect.displayName ?? aspect.value?.displayName
      if (!byUrn.has(entry.entityUrn!)) byUrn.set(entry.entityUrn!, [])
      byUrn.get(entry.entityUrn!)!.push(String(name))
    }
    return byUrn
  } finally {
    redis.disconnect()
  }
}

/**
 * Stops the writers, waits for the queues to drain, and checks every writer's history (historyProblems must be
 * empty, and the change log must list the stored versions exactly once each); answers the records and how many
 * acknowledged writes were found and how many client errors were seen.
 */
export async function finishWriters(cluster: Cluster, writers: Promise<WriteRecord>[], stop: () => void): Promise<{ records: WriteRecord[]; acked: number; found: number; errors: number; failures: string; problems: string[] }> {
  stop()
  const records = await Promise.all(writers)
  await drained(cluster)
  let acked = 0
  let found = 0
  const problems: string[] = []
  const logged = await changeLogNames(cluster)
  for (const record of records) {
    const stored = await storedValues(cluster.url, record.urn)
    problems.push(...historyProblems(record, stored).map((p) => `${record.urn}: ${p}`))
    const log = logged.get(record.urn) ?? []
    if (log.join('\n') !== stored.join('\n')) problems.push(`${record.urn}: the change log has ${log.length} entries for ${stored.length} stored versions`)
    acked += record.acked.size
    found += stored.filter((v) => record.acked.has(v)).length
  }
  const failures = new Map<string, number>()
  for (const r of records) for (const [kind, n] of r.failures) failures.set(kind, (failures.get(kind) ?? 0) + n)
  return { records, acked, found, errors: records.reduce((n, r) => n + r.errors, 0), failures: [...failures].map(([k, n]) => `${k} x${n}`).join(', '), problems }
}

/** A job in a partition queue, by the keys BullMQ keeps for it. */
export interface QueuedJob { partition: number; id: string }

/** The write jobs active (taken by a worker, not finished) right now, in every partition queue. */
export async function activeJobs(redis: RedisClient, cluster: Cluster): Promise<QueuedJob[]> {
  const lists = await Promise.all(Array.from({ length: Number(cluster.env.PARTITIONS) }, (_, p) => redis.lrange(queueKey(cluster, p, 'active'), 0, -1)))
  return lists.flatMap((ids, partition) => ids.map((id) => ({ partition, id })))
}

/**
 * Waits until `job` finished; answers when (ms since the epoch) and how often it was found stalled (its worker
 * died holding it), or undefined when BullMQ already removed it.
 */
export async function jobOutcome(redis: RedisClient, cluster: Cluster, job: QueuedJob, timeoutMs = 30_000): Promise<{ finishedOn: number; stalled: number } | undefined> {
  const key = queueKey(cluster, job.partition, job.id)
  let outcome: { finishedOn: number; stalled: number } | undefined
  await eventually(async () => {
    const [finishedOn, stalled, exists] = await Promise.all([redis.hget(key, 'finishedOn'), redis.hget(key, 'stc'), redis.exists(key)])
    if (!exists) return true
    if (!finishedOn) return false
    outcome = { finishedOn: Number(finishedOn), stalled: Number(stalled ?? 0) }
    return true
  }, timeoutMs, `job ${job.id} to finish`)
  return outcome
}
