/**
 * `node ops/bench/writeProfile.ts`: where the milliseconds of one write go. Starts its own Redis, a gateway and
 * workers in this one process, and sends writes one at a time (one in flight, so each phase is timed alone):
 * PROFILE_SINGLE ingestProposal requests (one aspect of a new dataset) and PROFILE_BATCHES ingestProposalBatch
 * requests (PROFILE_BATCH_SIZE new datasets × 3 aspects), listing Redis's PROFILE_TOP (6) costliest commands.
 * Phases are timed by wrapping the write path's own methods (Writer.submit, WriteQueues.add, EntityStore.state and
 * apply) and the workers' onApplied event:
 *
 *   gateway in    request sent -> Writer.submit called (HTTP, body parse, validation, proposal -> items)
 *   gather        Writer.submit -> WriteQueues.add (the partition's batch waits for the next turn)
 *   enqueue       WriteQueues.add (BullMQ's addJob script)
 *   pick-up       add resolved -> first EntityStore.state call in the worker (BullMQ moves the job to active)
 *   read          EntityStore.state calls (first call -> last resolved)
 *   plan          last read resolved -> first apply call (computeChange, planChange, search ops)
 *   script        EntityStore.apply calls (first call -> last resolved: the compare-and-set Lua script)
 *   follow/tell   last apply resolved -> onApplied (follow-up check, the reply's publish)
 *   reply         onApplied -> Writer.submit resolved (pub/sub delivery to the gateway)
 *   gateway out   Writer.submit resolved -> response read by the client
 *
 * Beside it, in the same run, the bare BullMQ round trip at one client (baselines.ts), so figures read as ratios:
 * the machine is shared, absolute milliseconds are noisy. Gateway and workers share one event loop here (in a
 * deployment they are separate processes), which the totals include.
 */
import http from 'node:http'
import { Redis } from 'ioredis'
import { loadConfig } from '../../model/config.ts'
import { createLogger } from '../../model/log.ts'
import { EntityStore } from '../../model/store/entityStore.ts'
import { WriteQueues } from '../../model/services/writeQueues.ts'
import { startGateway } from '../../gateway/start.ts'
import { Writer } from '../../gateway/writer.ts'
import { startWorkers } from '../../workers/start.ts'
import { startEmbeddedRedis } from '../embeddedRedis.ts'
import { bareBullmq } from './baselines.ts'
import { datasetProposal } from './data.ts'
import { send } from './load.ts'
import { REDIS_SOCKET } from './processes.ts'
import { median, round } from './stats.ts'

const SINGLE = Number(process.env.PROFILE_SINGLE ?? 400)
const BATCHES = Number(process.env.PROFILE_BATCHES ?? 20)
const BATCH_SIZE = Number(process.env.PROFILE_BATCH_SIZE ?? 100)

/** Timestamps of the write in flight (performance.now()). */
let marks: Record<string, number> = {}
const first = (name: string, t = performance.now()) => { marks[name] ??= t }
const last = (name: string, t = performance.now()) => { marks[name] = t }
let calls = { state: 0, apply: 0, add: 0 }

function wrap<T extends object>(proto: T, method: keyof T & string, before: () => void, after: () => void): void {
  const original = proto[method] as (...args: unknown[]) => Promise<unknown>
  ;(proto as Record<string, unknown>)[method] = async function (this: unknown, ...args: unknown[]) {
    before()
    try {
      return await original.apply(this, args)
    } finally {
      after()
    }
  }
}
wrap(Writer.prototype, 'submit', () => first('submit'), () => last('submitted'))
wrap(WriteQueues.prototype, 'add', () => { first('add'); calls.add++ }, () => first('added'))
wrap(EntityStore.prototype, 'state', () => { first('read'); calls.state++ }, () => last('readDone'))
wrap(EntityStore.prototype, 'apply', () => { first('apply'); calls.apply++ }, () => last('applied'))

const PHASES: [string, string, string][] = [
  ['gateway in', 'sent', 'submit'], ['gather', 'submit', 'add'], ['enqueue', 'add', 'added'], ['pick-up', 'added', 'read'], ['read', 'read', 'readDone'],
  ['plan', 'readDone', 'apply'], ['script', 'apply', 'applied'], ['follow/tell', 'applied', 'told'],
  ['reply', 'told', 'submitted'], ['gateway out', 'submitted', 'done'],
]

const redis = await startEmbeddedRedis({ socket: REDIS_SOCKET })
const config = { ...loadConfig({}), redisUrl: redis.localUrl, port: 0, dashboardPort: 0, logLevel: 'silent' as const, searchEngine: 'native' as const }
const log = createLogger('silent', 'write-profile')
const workers = await startWorkers(config, log, { onApplied: () => last('told') })
const gateway = await startGateway(config, log)
const base = new URL(gateway.url)
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const probe = new Redis(redis.localUrl)

/** Proposals of 3 aspects for each of `count` new datasets from `offset` (as upstream's sink sends a dataset). */
function threeAspects(offset: number, count: number): unknown[] {
  const aspect = (value: unknown) => ({ value: JSON.stringify(value), contentType: 'application/json' })
  return Array.from({ length: count }, (_, k) => {
    const p = datasetProposal(offset + k)
    return [p, { ...p, aspectName: 'status', aspect: aspect({ removed: false }) }, { ...p, aspectName: 'subTypes', aspect: aspect({ typeNames: ['table'] }) }]
  }).flat()
}

/** Sends `n` requests one at a time; prints the median of each phase (ms) and the calls per request. */
async function profile(title: string, n: number, body: (i: number) => unknown, path: string): Promise<void> {
  if (n === 0) return
  await probe.config('RESETSTAT')
  const samples: Record<string, number[]> = {}
  calls = { state: 0, apply: 0, add: 0 }
  for (let i = 0; i < n; i++) {
    marks = { sent: performance.now() }
    const res = await send(base, agent, { method: 'POST', path, body: JSON.stringify(body(i)) })
    marks.done = performance.now()
    if (res.status !== 200) throw new Error(`${path} -> ${res.status} ${res.body.slice(0, 300)}`)
    if (i < n / 10) continue // warm-up
    for (const [name, from, to] of [...PHASES, ['total', 'sent', 'done'] as [string, string, string]]) {
      ;(samples[name] ??= []).push(marks[to]! - marks[from]!)
    }
  }
  process.stdout.write(`\n${title} (${n} requests, one at a time; medians, ms)\n`)
  for (const [name, values] of Object.entries(samples)) process.stdout.write(`  ${name.padEnd(12)} ${String(round(median(values))).padStart(8)}\n`)
  process.stdout.write(`  per request: ${round(calls.add / n)} jobs, ${round(calls.state / n)} reads, ${round(calls.apply / n)} scripts\n`)
  // Where Redis's own time went (its one thread), per request: the top commands by total time.
  const stats = [...(await probe.info('commandstats')).matchAll(/cmdstat_(\w+):calls=(\d+),usec=(\d+)/g)]
    .map(([, cmd, calls, usec]) => ({ cmd: cmd!, calls: Number(calls) / n, ms: Number(usec) / 1000 / n })).sort((a, b) => b.ms - a.ms)
  process.stdout.write(`  redis, per request: ${stats.slice(0, Number(process.env.PROFILE_TOP ?? 6)).map((c) => `${c.cmd} ${round(c.calls)}x ${round(c.ms)} ms`).join(', ')}; all ${round(stats.reduce((a, c) => a + c.ms, 0))} ms\n`)
}

try {
  const bare = await bareBullmq(redis.localUrl, [1], 1000)
  process.stdout.write(`bare BullMQ round trip, 1 client: p50 ${round(bare[1]!.p50)} ms (${round(bare[1]!.perSecond)} jobs/s)\n`)
  await profile('ingestProposal, one aspect of a new dataset', SINGLE, (i) => ({ proposal: datasetProposal(i) }), '/aspects?action=ingestProposal')
  await profile(`ingestProposalBatch, ${BATCH_SIZE} new datasets x 3 aspects`, BATCHES, (i) => ({ proposals: threeAspects(1_000_000 + i * BATCH_SIZE, BATCH_SIZE) }), '/aspects?action=ingestProposalBatch')
} finally {
  agent.destroy()
  probe.disconnect()
  await gateway.close()
  await workers.close()
  await redis.stop()
}
process.exit(0)
