/**
 * What the fault tests share: the service as real processes (a redis-server of the test's own, a gateway, worker
 * processes) that can be killed and restarted, writers that record what was acknowledged, and the check that every
 * acknowledged write is stored exactly once, in order.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startEmbeddedRedis, type EmbeddedRedis } from '../../ops/embeddedRedis.ts'
import { spawnService, type ChildService } from './processes.ts'
import { Redis } from 'ioredis'
import { httpCall } from './service.ts'

/** The full forms run with `npm run test:faults` (FAULTS_FULL=1); `npm test` runs the short ones. */
export const FULL = process.env.FAULTS_FULL === '1'

export interface Cluster {
  redis: EmbeddedRedis
  url: string
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

/** Starts redis-server (append-only file, `appendfsync always`), a gateway process and `workers` worker processes. */
export async function startCluster(workers: number, env: Record<string, string> = {}): Promise<Cluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-faults-'))
  const redis = await startEmbeddedRedis({ dataDir, appendFsync: 'always' })
  const port = await freePort()
  const base = {
    REDIS_URL: redis.url, PORT: String(port), KEY_PREFIX: `f:${randomUUID().slice(0, 8)}:`, PARTITIONS: '4', LOG_LEVEL: 'warn',
    LOCK_DURATION_MS: '2000', STALLED_INTERVAL_MS: '1000', WRITE_TIMEOUT_MS: '30000', ...env,
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
      const exited = new Promise<void>((r) => cluster.redis.process.once('exit', () => r()))
      cluster.redis.process.kill('SIGKILL')
      await exited
      await new Promise((r) => setTimeout(r, downMs))
      cluster.redis = await startEmbeddedRedis({ dataDir, appendFsync: 'always', port: redis.port })
    },
    async stop() {
      await Promise.all([cluster.gateway.kill(), ...cluster.workers.map((w) => w.kill())])
      await cluster.redis.stop()
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
  errors: number
  latencies: number[]
}

/** The proposal setting a user's display name (each write's value is unique). */
export function displayNameProposal(urn: string, value: string) {
  return { proposal: { entityType: 'corpuser', entityUrn: urn, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ active: true, displayName: value }), contentType: 'application/json' } } }
}

/** Writes to `urn` one write at a time until `until()` says stop; errors are counted, never retried. */
export async function writeUntil(baseUrl: () => string, urn: string, until: () => boolean): Promise<WriteRecord> {
  const record: WriteRecord = { urn, sent: [], acked: new Set(), errors: 0, latencies: [] }
  for (let n = 1; !until(); n++) {
    const value = `${urn.split(':').pop()}-${n}`
    record.sent.push(value)
    const t0 = performance.now()
    const res = await httpCall(baseUrl(), 'POST', '/aspects?action=ingestProposal', displayNameProposal(urn, value)).catch(() => ({ status: 0, body: undefined }))
    record.latencies.push(performance.now() - t0)
    if (res.status === 200) record.acked.add(value)
    else {
      record.errors++
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

/** Waits until no write job is waiting or active in any partition queue. */
export async function drained(cluster: Cluster, timeoutMs = 60_000): Promise<void> {
  const redis = new Redis(cluster.redis.url)
  try {
    const prefix = `${cluster.env.KEY_PREFIX}q`
    await eventually(async () => {
      const counts = await Promise.all(Array.from({ length: Number(cluster.env.PARTITIONS) }, async (_, p) =>
        (await redis.llen(`${prefix}:ingest-${p}:wait`)) + (await redis.llen(`${prefix}:ingest-${p}:active`))))
      return counts.every((n) => n === 0)
    }, timeoutMs, 'the write queues to drain')
  } finally {
    redis.disconnect()
  }
}

/**
 * Stops the writers, waits for the queues to drain, and checks every writer's history (historyProblems must be
 * empty); answers the records and how many acknowledged writes were found and how many client errors were seen.
 */
export async function finishWriters(cluster: Cluster, writers: Promise<WriteRecord>[], stop: () => void): Promise<{ records: WriteRecord[]; acked: number; found: number; errors: number; problems: string[] }> {
  stop()
  const records = await Promise.all(writers)
  await drained(cluster)
  let acked = 0
  let found = 0
  const problems: string[] = []
  for (const record of records) {
    const stored = await storedValues(cluster.url, record.urn)
    problems.push(...historyProblems(record, stored).map((p) => `${record.urn}: ${p}`))
    acked += record.acked.size
    found += stored.filter((v) => record.acked.has(v)).length
  }
  return { records, acked, found, errors: records.reduce((n, r) => n + r.errors, 0), problems }
}
