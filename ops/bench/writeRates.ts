/**
 * `node ops/bench/writeRates.ts`: the write path's throughput alone, quickly (what issue 20 measures): starts its own
 * Redis, WRITE_WORKERS worker processes and a gateway, loads WRITE_DATASETS (20,000) new datasets of the live
 * scenario's catalogue (liveCatalogue.ts: 3 aspects each) through ingestProposalBatch (WRITE_BATCH_DATASETS, 100,
 * datasets a request, WRITE_BATCH_INFLIGHT, 4, in flight: as upstream's sink sends them), then sends synchronous
 * ingestProposals (new versions of loaded datasets) from WRITE_SYNC_CLIENTS clients (16; a list, or empty for none) and, beside them, a bare
 * BullMQ round trip at as many clients (baselines.ts: issue 20 asks for their ratio), restores one
 * platform's rows and every row (not with WRITE_RESTORE=0), and prints each figure with the CPU each process spent on
 * it (Redis, gateway, workers: from /proc), so a change can be judged by CPU per dataset as well as by rate on a
 * shared machine. WRITE_PARTITIONS sets the service's PARTITIONS (16). BENCH_PROFILE=<dir> writes the processes' CPU
 * profiles; WRITE_WORKER_FLAGS adds Node flags to the workers (e.g. `--trace-gc`), WRITE_WORKER_LOG=<file> keeps
 * their output.
 */
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { freePort, startEmbeddedRedis } from '../embeddedRedis.ts'
import { liveDataset, loadProposals, PLATFORMS, propertiesProposal } from './liveCatalogue.ts'
import { bareBullmq } from './baselines.ts'
import { commandTimes, resetCommandStats } from './liveRedis.ts'
import { rebuildThroughCli, restoreThrough, runLoad } from './load.ts'
import { REDIS_SOCKET, SERVICE_NODE_FLAGS, startChild, type Child } from './processes.ts'
import { round } from './stats.ts'

const DATASETS = Number(process.env.WRITE_DATASETS ?? 20_000)
const WORKERS = Number(process.env.WRITE_WORKERS ?? 1)
const PARTITIONS = Number(process.env.WRITE_PARTITIONS ?? 16)
const BATCH_DATASETS = Number(process.env.WRITE_BATCH_DATASETS ?? 100)
const BATCH_INFLIGHT = Number(process.env.WRITE_BATCH_INFLIGHT ?? 4)
const ENGINE = process.env.BENCH_ENGINE ?? 'native'
const PROFILE = process.env.BENCH_PROFILE
const RESTORE = process.env.WRITE_RESTORE !== '0'
const SYNC_CLIENTS = (process.env.WRITE_SYNC_CLIENTS ?? '16').split(',').filter(Boolean).map(Number)
const ADMIN = 'svc_bench_admin_token'

const embedded = await startEmbeddedRedis({ dataDir: mkdtempSync(join(tmpdir(), 'svc-wbench-')), appendFsync: 'everysec', binary: process.env.BENCH_REDIS_SERVER, module: process.env.REDISEARCH_MODULE, socket: REDIS_SOCKET })
const redis = new Redis(embedded.localUrl)
const port = await freePort()
const env = { REDIS_URL: embedded.localUrl, PORT: String(port), PARTITIONS: String(PARTITIONS), LOG_LEVEL: 'warn', SEARCH_ENGINE: ENGINE, ADMIN_TOKEN: ADMIN, KEY_PREFIX: 'bench:svc:' }
const flags = [...SERVICE_NODE_FLAGS, ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [])]
const children: Child[] = []
const workerFlags = [...flags, ...(process.env.WRITE_WORKER_FLAGS ?? '').split(' ').filter(Boolean)]
for (let w = 0; w < WORKERS; w++) children.push(await startChild('workers/main.ts', env, /workers running/, 30_000, workerFlags))
if (process.env.WRITE_WORKER_LOG) for (const c of children) c.process.stdout!.on('data', (d: Buffer) => appendFileSync(process.env.WRITE_WORKER_LOG!, d))
children.push(await startChild('gateway/main.ts', env, /gateway listening/, 30_000, flags))
const base = `http://127.0.0.1:${port}`

/** CPU seconds of a process (user + system) and of them in the kernel, from /proc. */
const ticks = Number(process.env.CLK_TCK ?? 100)
function cpuOf(pid: number): { all: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return { all: (Number(fields[11]) + Number(fields[12])) / ticks, system: Number(fields[12]) / ticks }
}
/** The CPU of a process that will exit: sampled every 100 ms while it runs, the last sample kept. */
function cpuWhileAlive(pid: number): { stop: () => { all: number; system: number } } {
  let last = { all: 0, system: 0 }
  const read = () => { try { last = cpuOf(pid) } catch { /* gone */ } }
  read()
  const timer = setInterval(read, 100)
  return { stop: () => { clearInterval(timer); return last } }
}
const sum = (a: { all: number; system: number }[]) => ({ all: a.reduce((n, c) => n + c.all, 0), system: a.reduce((n, c) => n + c.system, 0) })
const pids = { redis: Number(/process_id:(\d+)/.exec(await redis.info('server'))![1]), gateway: children.at(-1)!.process.pid!, workers: children.slice(0, -1).map((c) => c.process.pid!) }
const sample = () => ({ redis: cpuOf(pids.redis), gateway: cpuOf(pids.gateway), workers: sum(pids.workers.map(cpuOf)) })
/** Runs `run` (which answers how many units it did), prints its rate and each process's CPU per unit, and answers its seconds. */
async function measure(name: string, units: string, run: () => Promise<number>): Promise<number> {
  await resetCommandStats([redis])
  const before = sample()
  const t0 = performance.now()
  const n = await run()
  const seconds = (performance.now() - t0) / 1000
  const after = sample()
  const per = (k: keyof typeof before) => {
    const used = after[k].all - before[k].all
    return `${k} ${round((used * 1e6) / n)} us (${round((100 * used) / seconds)}% of a core, ${round((100 * (after[k].system - before[k].system)) / (used || 1))}% of it in the kernel)`
  }
  process.stdout.write(`${name}: ${round(n / seconds)} ${units}/s over ${round(seconds)} s; CPU per ${units.replace(/s$/, '')}: ${per('redis')}, ${per('gateway')}, ${per('workers')}\n`)
  const times = await commandTimes([redis], 14)
  process.stdout.write(`  Redis per ${units.replace(/s$/, '')}: ${times.map((t) => `${t.command} ${round(t.calls / n)}x ${round((t.ms * 1000) / n)} us`).join(', ')}\n`)
  return seconds
}

try {
  // What the processes spend with nothing to do (timers, polls, blocked reads), which every figure below includes.
  await measure('idle', 'seconds', async () => { await new Promise((r) => setTimeout(r, 5000)); return 5 })
  // As upstream's sink sends them (issue 20's batch figure): 100 datasets a request, each 3 aspects (properties, tags,
  // owner: the live scenario's catalogue), BATCH_INFLIGHT requests in flight (4).
  const seconds = await measure('batch first writes', 'datasets', async () => {
    await runLoad(base, BATCH_INFLIGHT, Math.ceil(DATASETS / BATCH_DATASETS), (b) => ({
      method: 'POST', path: '/aspects?action=ingestProposalBatch',
      body: JSON.stringify({ proposals: Array.from({ length: Math.min(BATCH_DATASETS, DATASETS - b * BATCH_DATASETS) }, (_, k) => loadProposals(b * BATCH_DATASETS + k)).flat() }),
    }))
    return DATASETS
  })
  process.stdout.write(`  (${round((3 * DATASETS) / seconds)} aspects/s sent, ${BATCH_DATASETS} datasets x 3 aspects a request; 6 aspects stored per dataset)\n`)
  const memory = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1])
  process.stdout.write(`  Redis used_memory after the load: ${round(memory / 2 ** 20)} MiB, ${round(memory / DATASETS)} bytes per dataset (with the write queues' finished jobs)\n`)
  // Synchronous proposals (issue 20's first figure), each a new version of one of 5,000 loaded datasets.
  const rates = new Map<number, number>()
  for (const clients of SYNC_CLIENTS) {
    const total = Math.max(1000, clients * 250)
    const seconds = await measure(`sync ingestProposal, ${clients} clients`, 'proposals', async () => {
      await runLoad(base, clients, total, (i) => ({ method: 'POST', path: '/aspects?action=ingestProposal', body: JSON.stringify({ proposal: propertiesProposal(liveDataset(i % 5000), i % 5000, 1 + Math.floor(i / 5000)) }) }))
      return total
    })
    rates.set(clients, total / seconds)
  }
  // The floor they are judged by, on the same server: an empty job added and awaited (baselines.ts).
  if (SYNC_CLIENTS.length > 0) {
    const bare = await bareBullmq(embedded.localUrl, SYNC_CLIENTS)
    process.stdout.write(`bare BullMQ round trip: ${SYNC_CLIENTS.map((c) => `${c} clients ${round(bare[c]!.perSecond)}/s (ingestProposal ${round(rates.get(c)! / bare[c]!.perSecond)}x)`).join(', ')}\n`)
  }
  if (RESTORE) {
    await measure('restore indices (one platform, 2,000 rows a call)', 'rows', () => restoreThrough(base, ADMIN, { urnLike: `urn:svc:dataset:(urn:svc:dataPlatform:${PLATFORMS[1]},%` }))
    await measure('restore indices (everything, 2,000 rows a call)', 'rows', () => restoreThrough(base, ADMIN, {}))
    let cli = { all: 0, system: 0 }
    await measure('svc restore --rebuild (every index deleted, then rebuilt from the rows)', 'rows', async () => {
      let sampler: ReturnType<typeof cpuWhileAlive> | undefined
      const { rows, output } = await rebuildThroughCli(env, flags, (pid) => { sampler = cpuWhileAlive(pid) }).finally(() => { cli = sampler!.stop() })
      process.stdout.write(output.split('\n').map((line) => `  svc: ${line}\n`).join(''))
      return rows
    })
    process.stdout.write(`  (the CLI process, which selects the rows and queues them: ${round(cli.all)} s of CPU, ${round((100 * cli.system) / (cli.all || 1))}% of it in the kernel)\n`)
  }
} finally {
  for (const c of children) await c.stop()
  redis.disconnect()
  await embedded.stop()
}
