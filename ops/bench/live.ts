/**
 * The live scenario (issue 19): the service measured the way it is used. It starts its own Redis (one server, or a
 * local cluster of 3 masters with BENCH_TOPOLOGY=cluster), BENCH_GATEWAYS gateway processes (1; with several, each
 * query loop and each write goes to one of them in turn, as a proxy in front of them would spread them) and worker
 * process(es), loads a generated catalogue of BENCH_LIVE_DATASETS datasets (liveCatalogue.ts) through
 * `ingestProposalBatch` (many requests in flight; the load rate is printed), then runs BENCH_LIVE_CLIENTS query
 * loops for BENCH_LIVE_SECONDS (after BENCH_LIVE_WARMUP seconds of the same, reported apart), each query of a kind
 * drawn at random with its words, prefixes, filter values and page drawn at random (liveQueries.ts), while a
 * steady stream of BENCH_LIVE_WRITES datasetProperties changes per second flows to random datasets (once the
 * gateways are ready and no server is rewriting its append-only file, which a load sets off). It reports per kind
 * p50/p95/p99 and count, the writes' latency and achieved rate, 5xx and timeouts, the Redis commands over 20 ms
 * on every node (slow log, cleared before the run) and the servers' stalls of 20 ms or more outside commands
 * (latency monitor), each gateway's GC and event-loop delay during the run (its /metrics: liveGateway.ts), the
 * machine's busy and stolen CPU, and Redis memory per dataset after the load,
 * to ops/bench/results/live-<engine>[-cluster].md and .json.
 *
 * `node ops/bench/live.ts` runs one engine (BENCH_ENGINE); `npm run bench:live` runs it on every engine and puts
 * them side by side; `npm run bench` runs it first. Environment: BENCH_LIVE_DATASETS (100000), BENCH_LIVE_CLIENTS
 * (8), BENCH_LIVE_SECONDS (60), BENCH_LIVE_WARMUP (5 seconds; 0 for none), BENCH_LIVE_WRITES (200 per second; 0
 * for none), BENCH_LIVE_KINDS (a regex of the kinds to ask), BENCH_LIVE_TIMEOUT_MS (10000: a request unanswered by then counts as a timeout),
 * BENCH_LIVE_LOAD_INFLIGHT (batch requests in flight while loading, 4), BENCH_LIVE_SEED (1), BENCH_LIVE_DATA_DIR (one
 * server: keep Redis's files there, and on a later run with the same settings skip the load: for measuring query-side
 * changes; its load and memory figures are then those of the run that loaded), BENCH_LIVE_HOLD=1 (after the load, keep
 * Redis and the gateway up for ops/bench/kindProbe.ts until interrupted, on a cluster too),
 * BENCH_GATEWAY_FLAGS (extra Node flags for the gateways, e.g. another young-generation size), BENCH_SHARDS (a cluster's
 * SHARDS, 16), and as in main.ts:
 * BENCH_ALL_IN_ONE (below), BENCH_ENGINE, BENCH_TOPOLOGY, BENCH_WORKERS, BENCH_GATEWAYS, BENCH_APPENDFSYNC, BENCH_REDIS_SERVER, REDISEARCH_MODULE, BENCH_OUT.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { freePort, startEmbeddedRedis } from '../embeddedRedis.ts'
import { startRedisCluster } from '../localCluster.ts'
import { loadProposals, liveDataset, pick, propertiesProposal, seeded } from './liveCatalogue.ts'
import { LIVE_KINDS } from './liveQueries.ts'
import { describePauses, gatewayPauses, type Pauses } from './liveGateway.ts'
import { commandTimes, cpuSeconds, forks, searchGc, keyBytes, persistenceSettled, readLatencyEvents, readSlowLog, searchIndexed, resetCommandStats, startLatencyMonitor, startSlowLog, usedMemory, type CommandTime, type SlowLog, type Stall } from './liveRedis.ts'
import { send, type Request } from './load.ts'
import { REDIS_SOCKET, SERVICE_NODE_FLAGS, cpuSecondsOf, machineTimes, startChild, type Child, type MachineTimes } from './processes.ts'
import { percentile, round } from './stats.ts'

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const DATASETS = num('BENCH_LIVE_DATASETS', 100_000)
const CLIENTS = num('BENCH_LIVE_CLIENTS', 8)
const SECONDS = num('BENCH_LIVE_SECONDS', 60)
/**
 * Seconds of the same loops and writes before the measured run, reported apart: the first second after processes
 * start runs code V8 has not compiled yet and makes the copies' tables for the words first asked (a gateway asks
 * itself some queries before it says ready: model/search/warmQueries.ts; a worker's write path is cold until its
 * first writes); in this benchmark it answered ~80 queries at a median of ~130 ms where the next seconds answered
 * 500 a second at ~20 ms, and its writes (mean ~100 ms) alone set the writes' p99 of a 60-second run.
 */
const WARMUP = num('BENCH_LIVE_WARMUP', 5)
const WRITES = num('BENCH_LIVE_WRITES', 200)
const TIMEOUT_MS = num('BENCH_LIVE_TIMEOUT_MS', 10_000)
const LOAD_INFLIGHT = num('BENCH_LIVE_LOAD_INFLIGHT', 4)
const SEED = num('BENCH_LIVE_SEED', 1)
const SLOW_MS = 20
/**
 * BENCH_ALL_IN_ONE=1: the first gateway is `npm start`'s process (ops/main.ts: the workers in a thread of their own,
 * the gateway, the queue dashboard) on this run's Redis, and no worker process runs (BENCH_WORKERS is then 0).
 */
const ALL_IN_ONE = process.env.BENCH_ALL_IN_ONE === '1'
const WORKERS = ALL_IN_ONE ? 0 : num('BENCH_WORKERS', 1)
const GATEWAYS = num('BENCH_GATEWAYS', 1)
/** Extra Node flags for the gateways, after the service's own (BENCH_GATEWAY_FLAGS, space-separated: a flag to compare). */
const GATEWAY_FLAGS = (process.env.BENCH_GATEWAY_FLAGS ?? '').split(' ').filter(Boolean)
const FSYNC = (process.env.BENCH_APPENDFSYNC ?? 'everysec') as 'always' | 'everysec' | 'no'
const ENGINE = process.env.BENCH_ENGINE ?? 'native'
const TOPOLOGY = process.env.BENCH_TOPOLOGY === 'cluster' ? 'cluster' : 'standalone'
/** Shards of the cluster's keys (BENCH_SHARDS, 16 as the service's default on a cluster): each query asks every one. */
const SHARDS = num('BENCH_SHARDS', 16)
const MODULE = ENGINE === 'redisearch' ? process.env.REDISEARCH_MODULE ?? '/opt/redisearch/redisearch.so' : undefined
const KINDS = LIVE_KINDS.filter((k) => new RegExp(process.env.BENCH_LIVE_KINDS ?? '.').test(k.kind))
const PREFIX = 'bench:svc:'
const log = (msg: string) => process.stderr.write(`[live] ${msg}\n`)
if (KINDS.length === 0) throw new Error(`BENCH_LIVE_KINDS matches no kind of: ${LIVE_KINDS.map((k) => k.kind).join(', ')}`)

// ---- the stack ----------------------------------------------------------------------------------------------------
const startLoad = loadavg()[0]!
const keptDir = process.env.BENCH_LIVE_DATA_DIR
const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'svc-bench-live-'))
const binary = process.env.BENCH_REDIS_SERVER
const cluster = TOPOLOGY === 'cluster' ? await startRedisCluster({ masters: 3, replicas: 0, module: MODULE, appendOnly: true, appendFsync: FSYNC, binary }) : undefined
const embedded = cluster ? undefined : await startEmbeddedRedis({ dataDir, appendFsync: FSYNC, binary, module: MODULE, socket: REDIS_SOCKET })
const nodes = cluster ? (await cluster.masterPorts()).map((p) => new Redis(p, '127.0.0.1')) : [new Redis(embedded!.localUrl)]
const serverVersion = /redis_version:(\S+)/.exec(await nodes[0]!.info('server'))?.[1] ?? '?'
const modules = (await nodes[0]!.call('MODULE', 'LIST')) as unknown[][]
const searchVer = modules.map((m) => Object.fromEntries(Array.from({ length: m.length / 2 }, (_, i) => [String(m[2 * i]), m[2 * i + 1]]))).find((m) => m.name === 'search')?.ver
const moduleVersion = searchVer === undefined ? undefined : `${Math.floor(Number(searchVer) / 10000)}.${Math.floor(Number(searchVer) / 100) % 100}.${Number(searchVer) % 100}`
const ENGINE_NAME = ENGINE === 'redisearch' ? `redisearch (RediSearch ${moduleVersion ?? '?'})` : ENGINE
const ports: number[] = []
for (let g = 0; g < GATEWAYS; g++) ports.push(await freePort())
const env = {
  ...(cluster ? { REDIS_CLUSTER: cluster.seeds, SHARDS: String(SHARDS) } : { REDIS_URL: embedded!.localUrl }),
  PARTITIONS: '16', LOG_LEVEL: 'warn', SEARCH_ENGINE: ENGINE, ADMIN_TOKEN: 'svc_bench_admin_token', KEY_PREFIX: PREFIX,
  // A loaded batch may take longer than the default 30 s on a busy machine; the run's own timeout (TIMEOUT_MS) is shorter.
  WRITE_TIMEOUT_MS: String(Math.max(TIMEOUT_MS, 120_000)),
}
const children: Child[] = []
/** Stops everything this run started (also when it fails half-way). */
async function stopAll(): Promise<void> {
  for (const child of children.reverse()) await child.stop().catch(() => {})
  for (const n of nodes) n.disconnect()
  await embedded?.stop().catch(() => {})
  await cluster?.stop().catch(() => {})
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().then(() => process.exit(130)))
const bases = ports.map((port) => new URL(`http://127.0.0.1:${port}`))
const base = bases[0]!
try {
  // BENCH_PROFILE=<dir>: CPU profiles of the worker and the gateway, written there when they stop.
  const profile = (name: string) => (process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`, `--cpu-prof-name=${name}.cpuprofile`] : [])
  for (let w = 0; w < WORKERS; w++) children.push(await startChild('workers/main.ts', env, /workers running/, 120_000, [...SERVICE_NODE_FLAGS, ...profile(`worker-${w}`)]))
  for (let g = 0; g < GATEWAYS; g++) {
    const [script, ready] = ALL_IN_ONE && g === 0 ? ['ops/main.ts', /catalog service listening/] as const : ['gateway/main.ts', /gateway listening/] as const
    children.push(await startChild(script, { ...env, PORT: String(ports[g]), DASHBOARD_PORT: String(await freePort()) }, ready, 120_000, [...SERVICE_NODE_FLAGS, ...GATEWAY_FLAGS, ...profile(g === 0 ? 'gateway' : `gateway-${g}`)]))
  }
} catch (err) {
  await stopAll()
  throw err
}
log(`${cluster ? `cluster of 3 masters (${SHARDS} shards) ${cluster.seeds}` : embedded!.localUrl}, Redis ${serverVersion}, engine ${ENGINE_NAME}, ${GATEWAYS} gateway(s), ${WORKERS} worker process(es); ${DATASETS} datasets, ${CLIENTS} query loops for ${SECONDS} s, ${WRITES} writes/s; load average ${round(startLoad)} on ${cpus().length} cores`)

// ---- load ------------------------------------------------------------------------------------------------------
const PER_REQUEST = 333 // datasets per batch request: 999 proposals (3 each)
async function load(): Promise<{ seconds: number; perSecond: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: LOAD_INFLIGHT })
  const t0 = performance.now()
  let next = 0
  let done = 0
  // Each tenth: its rate and the Redis CPU it took per dataset (a cost that grows with the catalogue shows here).
  const redisCpu = async () => (await cpuSeconds(nodes)).reduce((a, b) => a + b, 0)
  let mark = { done: 0, at: t0, cpu: await redisCpu() }
  let finished = false
  const progress = (async () => {
    for (;;) {
      const last = finished // the loads ended (or failed): the rest is logged once
      if (!last) await new Promise((r) => setTimeout(r, 250))
      if (done - mark.done >= DATASETS / 10 || (last && done > mark.done)) {
        const now = { done, at: performance.now(), cpu: await redisCpu() }
        log(`  loaded ${now.done} datasets: ${round((now.done - mark.done) / ((now.at - mark.at) / 1000))}/s since ${mark.done}, Redis CPU ${round(((now.cpu - mark.cpu) * 1000) / (now.done - mark.done))} ms per dataset; load average ${round(loadavg()[0]!)}`)
        mark = now
      }
      if (last) return
    }
  })().catch(() => {}) // a progress line lost (Redis stopped after a failed load) is no failure of its own
  await Promise.all(Array.from({ length: LOAD_INFLIGHT }, async () => {
    while (next < DATASETS) {
      const from = next
      next = Math.min(DATASETS, next + PER_REQUEST)
      const proposals = []
      for (let i = from; i < next; i++) proposals.push(...loadProposals(i))
      const body = JSON.stringify({ proposals })
      let res = await send(base, agent, { method: 'POST', path: '/aspects?action=ingestProposalBatch', body }, 10 * 60_000)
      // A write not confirmed in time may still be applied: sending it again is harmless (an identical value creates nothing).
      for (let retry = 0; res.status === 503 && retry < 5; retry++) {
        log(`  datasets ${from}-${next}: ${res.body.slice(0, 200)}; sent again`)
        res = await send(base, agent, { method: 'POST', path: '/aspects?action=ingestProposalBatch', body }, 10 * 60_000)
      }
      if (res.status !== 200) throw new Error(`loading datasets ${from}-${next}: HTTP ${res.status} ${res.body.slice(0, 500)}`)
      const answer = JSON.parse(res.body) as { value: { rejected: number; results: { status: number; error?: unknown }[] } }
      if (answer.value.rejected > 0) throw new Error(`loading datasets ${from}-${next}: ${answer.value.rejected} rejected, e.g. ${JSON.stringify(answer.value.results.find((r) => r.status !== 200))}`)
      done += proposals.length / 3
    }
  })).finally(() => { finished = true })
  await progress
  agent.destroy()
  const seconds = (performance.now() - t0) / 1000
  return { seconds, perSecond: DATASETS / seconds }
}

// ---- the run ---------------------------------------------------------------------------------------------------
interface Tally { latencies: number[]; count: number; http5xx: number; timeouts: number; otherErrors: number; repeats: number; firstError?: string }
const tally = (): Tally => ({ latencies: [], count: 0, http5xx: 0, timeouts: 0, otherErrors: 0, repeats: 0 })

/** Sends `req`, timing it into `t` (answers other than 200 counted by kind: 5xx, timeout, other). */
async function timed(agent: http.Agent, req: Request, t: Tally, target = base): Promise<void> {
  const t0 = performance.now()
  try {
    const res = await send(target, agent, req, TIMEOUT_MS)
    t.latencies.push(performance.now() - t0)
    if (res.status >= 500) t.http5xx++
    else if (res.status !== 200) t.otherErrors++
    if (res.status !== 200) t.firstError ??= `${res.status} ${res.body.slice(0, 300)} (request ${req.body})`
  } catch (err) {
    // A timeout counts in the percentiles at the time waited (what the caller waited, at least).
    if ((err as { code?: string }).code === 'TIMEOUT') { t.timeouts++; t.latencies.push(performance.now() - t0) } else t.otherErrors++
    t.firstError ??= `${(err as Error).message} (request ${req.body})`
  }
  t.count++
}

async function run(runSeconds: number): Promise<{ kinds: Map<string, Tally>; writes: Tally & { asked: number; behind: number }; seconds: number }> {
  const kinds = new Map(KINDS.map((k) => [k.kind, tally()]))
  const asked = new Set<string>()
  const queryAgent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS })
  const writeAgent = new http.Agent({ keepAlive: true, maxSockets: 1000 }) // a socket for every write in flight: none waits in the client
  const writes = { ...tally(), asked: 0, behind: 0 }
  const t0 = performance.now()
  const end = t0 + runSeconds * 1000
  const loops = Array.from({ length: CLIENTS }, async (_, k) => {
    const rnd = seeded(SEED * 7_777 + k)
    while (performance.now() < end) {
      const kind = pick(rnd, KINDS)
      const req = kind.draw(rnd, DATASETS)
      const t = kinds.get(kind.kind)!
      const key = `${req.path} ${req.body}`
      if (asked.has(key)) t.repeats++
      asked.add(key)
      await timed(queryAgent, req, t, bases[k % GATEWAYS])
    }
  })
  // Writes at a steady rate, not waiting for each other (at most 1,000 in flight; what could not be sent is `behind`).
  const inFlight = new Set<Promise<void>>()
  // Revisions start at the run's start second: every write changes its dataset's description, also on a kept store
  // (BENCH_LIVE_DATA_DIR) that earlier runs wrote (the same revision again would be an identical value: no change).
  const revisions = new Map<number, number>()
  const firstRevision = Math.floor(Date.now() / 1000)
  const wrnd = seeded(SEED * 31_337)
  const writer = (async () => {
    if (WRITES <= 0) return
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - t0) / 1000) * WRITES)
      while (writes.asked + writes.behind < due) {
        if (inFlight.size >= 1000) { writes.behind++; continue }
        const i = Math.floor(wrnd() * DATASETS)
        const revision = (revisions.get(i) ?? firstRevision) + 1
        revisions.set(i, revision)
        writes.asked++
        const body = JSON.stringify({ proposal: propertiesProposal(liveDataset(i), i, revision) })
        const p: Promise<void> = timed(writeAgent, { method: 'POST', path: '/aspects?action=ingestProposal', body }, writes, bases[writes.asked % GATEWAYS]).finally(() => inFlight.delete(p))
        inFlight.add(p)
      }
      await new Promise((r) => setTimeout(r, 5))
    }
  })()
  await Promise.all([...loops, writer])
  const seconds = (performance.now() - t0) / 1000
  await Promise.all(inFlight)
  queryAgent.destroy()
  writeAgent.destroy()
  return { kinds, writes, seconds }
}

let loaded: { seconds: number; perSecond: number }
let memory: { usedMemory: number; perDataset: number; queueBytes: number; perDatasetWithoutQueue: number }
let result: Awaited<ReturnType<typeof run>>
let slow: SlowLog
let slowLoad: SlowLog
/** Per node, the share of one core its server used during the run (1 = its one thread never idle). */
let busy: number[]
/** Forks during the run (each copies the server's page tables, and its memory is then copied page by page as it is written). */
let forked: { count: number; latestMs: number }
let gc: { cycles: number; ms: number }
/** used_memory, all nodes, when the run starts and when it ends (the writes' growth, and what collectors took back). */
let runMemory: { before: number; after: number }
/** Where the servers' time went during the run, by command. */
let timeByCommand: CommandTime[]
/** Each gateway's pauses (GC, event-loop delay) during the run. */
let pauses: string[]
/** The share of a core the worker processes (summed) and this process (the query loops and the writer) used during the run. */
let clientShares: { workers: number; bench: number }
/** The warm-up's queries (all kinds) and writes, when there was one. */
let warm: { queries: Tally; writes: Tally; seconds: number } | undefined
/** The servers' stalls outside commands during the run. */
let stalls: Stall[]
/** The whole machine's CPU during the run: busy, of it the kernel's, and stolen by the host, as shares of all cores. */
let machineShare: { busy: number; system: number; steal: number } | undefined
try {
  const before = await usedMemory(nodes)
  await startSlowLog(nodes, SLOW_MS * 1000)
  // A kept store says what it was loaded with (and what the load measured): the same settings skip the load.
  const marker = `${PREFIX}bench:loaded`
  const kept = keptDir && !cluster ? JSON.parse(await nodes[0]!.get(marker) ?? 'null') as { datasets: number; seed: number; loaded: typeof loaded; memory: typeof memory; slowLoad: SlowLog } | null : null
  if (kept && kept.datasets === DATASETS && kept.seed === SEED) {
    ;({ loaded, memory, slowLoad } = kept)
    log(`reusing the ${DATASETS} datasets kept in ${keptDir} (loaded at ${round(kept.loaded.perSecond)} datasets/s)`)
  } else {
    log(`loading ${DATASETS} datasets (3 proposals each, ${PER_REQUEST} datasets per ingestProposalBatch, ${LOAD_INFLIGHT} in flight)`)
    loaded = await load()
    log(`loaded ${DATASETS} datasets in ${round(loaded.seconds)} s: ${round(loaded.perSecond)} datasets/s`)
    slowLoad = await readSlowLog(nodes)
    const after = await usedMemory(nodes)
    // Finished jobs BullMQ still keeps (for a minute: JOB_OPTIONS in model/services/writeQueues.ts) are the queue's, not the catalogue's.
    const queueBytes = await keyBytes(nodes, `${PREFIX}q*`)
    memory = { usedMemory: after, perDataset: after / DATASETS, queueBytes, perDatasetWithoutQueue: (after - before - queueBytes) / DATASETS }
    if (keptDir && !cluster) await nodes[0]!.set(marker, JSON.stringify({ datasets: DATASETS, seed: SEED, loaded, memory, slowLoad }))
  }
  log(`Redis commands over ${SLOW_MS} ms while loading: ${slowLoad.count}${slowLoad.count ? ` (${describeCounts(slowLoad)})` : ''}`)
  log(`Redis used_memory ${round(memory.usedMemory / 2 ** 20)} MiB: ${round(memory.perDataset)} bytes per dataset; ${round(memory.perDatasetWithoutQueue)} without the empty store and the queue's ${round(memory.queueBytes / 2 ** 20)} MiB`)
  // The gateway copies what its queries read (the native engine's facet lines and names) before it says ready. An
  // unanswered ask counts as not ready: a gateway started on a kept store of a million datasets (Redis loaded
  // already) left one unanswered for 10 s.
  const waited = performance.now()
  const ready = (target: URL, agent: http.Agent) => send(target, agent, { method: 'GET', path: '/ready' }, TIMEOUT_MS).then((r) => r.status === 200, () => false)
  for (const target of bases) {
    for (const agent = new http.Agent(); !(await ready(target, agent));) await new Promise((r) => setTimeout(r, 200))
  }
  log(`gateway ready ${round((performance.now() - waited) / 1000)} s after the load`)
  log(`no append-only file rewrite, snapshot or module fork running: waited ${round(await persistenceSettled(nodes))} s`)
  log(`every search index built: waited ${round(await searchIndexed(nodes))} s`)
  if (process.env.BENCH_LIVE_HOLD === '1') {
    // For ops/bench/kindProbe.ts: the store stays up, with its gateway, until this process is interrupted.
    log(`holding: PROBE_URL=${base.origin} PROBE_REDIS=${cluster ? (await cluster.masterPorts()).join(',') : embedded!.port} (Ctrl-C stops everything)`)
    await new Promise(() => {})
  }
  if (WARMUP > 0) {
    log(`warming up: the same loops and writes for ${WARMUP} s, reported apart`)
    const w = await run(WARMUP)
    const queries = tally()
    for (const t of w.kinds.values()) queries.latencies.push(...t.latencies)
    queries.count = queries.latencies.length
    warm = { queries, writes: w.writes, seconds: w.seconds }
  }
  await startSlowLog(nodes, SLOW_MS * 1000)
  await startLatencyMonitor(nodes, SLOW_MS)
  const machineBefore = machineTimes()
  log(`running ${CLIENTS} query loops over ${KINDS.length} kinds and ${WRITES} writes/s for ${SECONDS} s`)
  const cpuBefore = await cpuSeconds(nodes)
  // The worker processes were started first (children[0..WORKERS)).
  const workersCpu = () => children.slice(0, WORKERS).reduce((a, c) => a + cpuSecondsOf(c.process.pid), 0)
  const workersBefore = workersCpu()
  const benchBefore = process.cpuUsage()
  await resetCommandStats(nodes)
  // After the reset: CONFIG RESETSTAT sets total_forks back to 0 too.
  const forksBefore = await forks(nodes)
  const gcBefore = await searchGc(nodes)
  const memoryBefore = await usedMemory(nodes)
  const pausesBefore = await Promise.all(bases.map(gatewayPauses))
  result = await run(SECONDS)
  const machineAfter = machineTimes()
  machineShare = machineBefore && machineAfter ? shareOf(machineBefore, machineAfter) : undefined
  const benchUsed = process.cpuUsage(benchBefore)
  clientShares = {
    workers: (workersCpu() - workersBefore) / result.seconds,
    bench: (benchUsed.user + benchUsed.system) / 1e6 / result.seconds,
  }
  const cpuAfter = await cpuSeconds(nodes)
  const forksAfter = await forks(nodes)
  forked = { count: forksAfter.count - forksBefore.count, latestMs: forksAfter.latestMs }
  const gcAfter = await searchGc(nodes)
  gc = { cycles: gcAfter.cycles - gcBefore.cycles, ms: gcAfter.ms - gcBefore.ms }
  runMemory = { before: memoryBefore, after: await usedMemory(nodes) }
  const pausesAfter: Pauses[] = await Promise.all(bases.map(gatewayPauses))
  // Each gateway's share of the requests (queries and writes), taken as even.
  const requests = ([...result.kinds.values()].reduce((n, t) => n + t.count, 0) + result.writes.count) / GATEWAYS
  pauses = pausesAfter.map((after, g) => describePauses(pausesBefore[g]!, after, result.seconds, requests))
  busy = cpuAfter.map((c, k) => (c - cpuBefore[k]!) / result.seconds)
  slow = await readSlowLog(nodes)
  stalls = await readLatencyEvents(nodes)
  timeByCommand = await commandTimes(nodes)
} finally {
  await stopAll()
}

// ---- report ----------------------------------------------------------------------------------------------------
const stats = (t: Tally) => ({
  count: t.count, p50: percentile(t.latencies, 50), p95: percentile(t.latencies, 95), p99: percentile(t.latencies, 99),
  max: t.latencies.length ? Math.max(...t.latencies) : NaN, http5xx: t.http5xx, timeouts: t.timeouts, otherErrors: t.otherErrors, repeats: t.repeats, firstError: t.firstError,
})
const kinds = [...result.kinds].map(([kind, t]) => ({ kind, ...stats(t) }))
const writes = { ...stats(result.writes), asked: result.writes.asked, behind: result.writes.behind, perSecond: (result.writes.count - result.writes.http5xx - result.writes.timeouts - result.writes.otherErrors) / result.seconds }
const queries = kinds.reduce((a, k) => a + k.count, 0)
const machine = {
  cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, date: new Date().toISOString(),
  loadAverageAtStart: startLoad, loadAverageAtEnd: loadavg()[0]!, redis: serverVersion, moduleVersion, engine: ENGINE, engineName: ENGINE_NAME, topology: TOPOLOGY, workers: WORKERS, allInOne: ALL_IN_ONE, appendfsync: FSYNC, socket: !cluster && REDIS_SOCKET,
}
const settings = { datasets: DATASETS, clients: CLIENTS, gateways: GATEWAYS, seconds: SECONDS, warmupSeconds: WARMUP, writesPerSecond: WRITES, timeoutMs: TIMEOUT_MS, seed: SEED, slowMs: SLOW_MS }
for (const k of kinds) if (k.firstError) log(`${k.kind}: first error: ${k.firstError}`)
if (writes.firstError) log(`writes: first error: ${writes.firstError}`)

function shareOf(before: MachineTimes, after: MachineTimes): { busy: number; system: number; steal: number } {
  const total = after.total - before.total
  return { busy: (after.busy - before.busy) / total, system: (after.system - before.system) / total, steal: (after.steal - before.steal) / total }
}

function describeCounts(s: SlowLog): string {
  return `the longest ${round(s.longestMs)} ms; by command: ${Object.entries(s.byCommand).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ')}`
}
const ms = (x: number) => (Number.isFinite(x) ? String(round(x)) : '-')
const pct = (share: number) => (Number.isFinite(share) ? `${Math.round(share * 100)}%` : '-')
const row = (name: string, s: ReturnType<typeof stats>, repeats = String(s.repeats)) => `| ${name} | ${s.count} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} | ${s.http5xx} | ${s.timeouts} | ${s.otherErrors} | ${repeats} |`
const where = TOPOLOGY === 'cluster' ? `a local Redis Cluster of 3 masters (${SHARDS} shards)` : 'one redis-server'
const report = `# Live scenario: engine ${ENGINE_NAME}, ${where}

Machine: ${machine.cpus} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}, shared with other work (load average
${round(startLoad)} at the start, ${round(machine.loadAverageAtEnd)} at the end); Redis ${serverVersion} (appendfsync ${FSYNC}${cluster ? '' : REDIS_SOCKET ? ', reached through its unix socket' : ', reached over TCP'}), ${ALL_IN_ONE ? `\`npm start\`'s process (ops/main.ts: the workers in a thread of their own, the gateway and the queue dashboard; its CPU below is theirs together)${GATEWAYS > 1 ? ` and ${GATEWAYS - 1} more gateway(s)` : ''}` : `${WORKERS} worker process(es), ${GATEWAYS === 1 ? 'a gateway' : `${GATEWAYS} gateways`}`}; ${machine.date}.
\`BENCH_LIVE_DATASETS=${DATASETS} BENCH_LIVE_CLIENTS=${CLIENTS} BENCH_LIVE_SECONDS=${SECONDS} BENCH_LIVE_WARMUP=${WARMUP} BENCH_LIVE_WRITES=${WRITES}${ENGINE === 'redisearch' && process.env.REDISEARCH_GC_INTERVAL ? ` REDISEARCH_GC_INTERVAL=${process.env.REDISEARCH_GC_INTERVAL}` : ''}\` (ops/bench/live.ts).

- Load: ${DATASETS} datasets (3 aspects each: properties, tags, owner) in ${round(loaded.seconds)} s, **${round(loaded.perSecond)} datasets/s** through \`ingestProposalBatch\`.
- Redis memory after the load: used_memory ${round(memory.usedMemory / 2 ** 20)} MiB, **${round(memory.perDataset)} bytes per dataset**; ${round(memory.perDatasetWithoutQueue)} bytes per dataset without the empty store's and the write queue's finished jobs (${round(memory.queueBytes / 2 ** 20)} MiB); during the run ${round(runMemory.before / 2 ** 20)} -> ${round(runMemory.after / 2 ** 20)} MiB.
- Queries: ${CLIENTS} loops, ${queries} queries in ${round(result.seconds)} s (**${round(queries / result.seconds)}/s** in all), each of a kind drawn at random, its words, prefixes, filter values and page drawn at random from the catalogue's 400-word vocabulary; ${kinds.reduce((a, k) => a + k.repeats, 0)} of them had been asked before in the run (an exact repeat${ENGINE === 'redisearch' ? '; the redisearch engine\'s answer memo may serve a repeat asked before the next write' : ''}; the writes below change the catalogue ${WRITES} times a second, so nothing is served from a warm cache for long).
- Writes: ${writes.asked} datasetProperties changes of random datasets asked at ${WRITES}/s, **${round(writes.perSecond)}/s applied** (answered 200)${writes.behind ? `, ${writes.behind} not sent (1,000 already in flight)` : ''}.
- Redis CPU during the run: ${busy.map((b) => `${Math.round(b * 100)}%`).join(', ')} of a core${busy.length > 1 ? ' (per master)' : ''}; ${forked.count} fork(s) (snapshots, file rewrites, the search module's garbage collector)${forked.count ? `, the latest took ${round(forked.latestMs)} ms` : ''}${ENGINE === 'redisearch' ? `; the search module's garbage collector ended ${gc.cycles} cycle(s) during the run, ${round(gc.ms / 1000)} s in all (from its fork to the end of applying what its child found)` : ''}.
- Gateway CPU and pauses during the run (its own metrics): ${pauses.map((p, g) => `${GATEWAYS > 1 ? `gateway ${g + 1}: ` : ''}${p}`).join('; ')}.
- Other CPU during the run: the worker process(es) ${pct(clientShares.workers)} of a core, this benchmark's own process (the query loops and the writer, which send and read every request) ${pct(clientShares.bench)}; on ${machine.cpus} cores shared by all of them, a query loop waits for a core whenever the sum nears ${machine.cpus * 100}%.${machineShare ? ` The machine (/proc/stat) was ${pct(machineShare.busy)} busy (of its ${machine.cpus} cores), the kernel's part ${pct(machineShare.system)}, stolen by its host ${pct(machineShare.steal)}.` : ''}
- Redis time by command during the run, all nodes, per second of the run (a script's time includes the commands it called, also listed under their names): ${timeByCommand.map((t) => `${t.command} ${round(t.ms / result.seconds)} ms (${round(t.calls / result.seconds)} calls)`).join(', ')}.
- Redis commands over ${SLOW_MS} ms during the run, all nodes: **${slow.count}**${slow.count ? `, ${describeCounts(slow)}` : ''} (while loading: ${slowLoad.count}${slowLoad.count ? `, ${describeCounts(slowLoad)}` : ''}). On a shared machine a command also counts the time its server waited for a core. Stalls of ${SLOW_MS} ms or more outside commands (Redis's latency monitor): ${stalls.length ? stalls.map((s) => `${s.event} in ${s.seconds} second(s), the longest ${s.maxMs} ms`).join('; ') : 'none'}.
${warm ? `- Warm-up, not in the table below: the first ${round(warm.seconds)} s after the gateway${GATEWAYS > 1 ? 's were' : ' was'} ready ran the same loops and writes (${round(warm.queries.latencies.length / warm.seconds)} queries/s; queries of every kind p50 ${ms(percentile(warm.queries.latencies, 50))}, p99 ${ms(percentile(warm.queries.latencies, 99))}, max ${ms(Math.max(...warm.queries.latencies))} ms; writes p50 ${ms(percentile(warm.writes.latencies, 50))}, p99 ${ms(percentile(warm.writes.latencies, 99))}, max ${ms(Math.max(...warm.writes.latencies))} ms): code not yet compiled, tables not yet made (BENCH_LIVE_WARMUP).\n` : ''}
Latencies are the caller's, from sending to the whole answer; a request unanswered after ${TIMEOUT_MS / 1000} s is a timeout and counts as ${TIMEOUT_MS / 1000} s.

| query kind (dataset, 10 per page) | count | p50 ms | p95 ms | p99 ms | max ms | 5xx | timeouts | other errors | asked before in the run |
|---|---|---|---|---|---|---|---|---|---|
${kinds.map((k) => row(k.kind, k)).join('\n')}
${row(`writes (ingestProposal of datasetProperties, ${WRITES}/s asked)`, writes, '')}
${slow.slowest.length ? `\nThe slowest Redis commands:\n\n| ms | node | command |\n|---|---|---|\n${slow.slowest.map((s) => `| ${round(s.ms)} | ${s.node} | \`${s.command.replace(/\|/g, '\\|').replace(/`/g, "'")}\` |`).join('\n')}\n` : ''}`
const resultsDir = join('ops', 'bench', 'results')
mkdirSync(resultsDir, { recursive: true })
const name = process.env.BENCH_OUT ?? `live-${ENGINE}${TOPOLOGY === 'cluster' ? '-cluster' : ''}`
writeFileSync(join(resultsDir, `${name}.json`), JSON.stringify({ machine, settings, load: loaded, memory, queries: { count: queries, perSecond: queries / result.seconds, seconds: result.seconds }, kinds, writes, redisCpuShare: busy, forks: forked, searchGc: gc, runMemory, redisTimeByCommand: timeByCommand, slowLog: slow, slowLogWhileLoading: slowLoad, gatewayPauses: pauses, cpuShares: clientShares, machineShare, redisStalls: stalls, warmUp: warm && { seconds: warm.seconds, queries: stats(warm.queries), writes: stats(warm.writes) } }, null, 2))
writeFileSync(join(resultsDir, `${name}.md`), report)
process.stdout.write(`\n${report}\nwritten to ${resultsDir}/${name}.md (and .json)\n`)
process.exit(0)
