/**
 * `npm run bench:apply`: what one entity's apply costs, step by step, alone on a quiet server (no gateway, no
 * queue): APPLY_DATASETS (5,000) new datasets of the live scenario's catalogue (liveCatalogue.ts: 3 aspects each),
 * then a new datasetProperties of each. For each step, the worker's CPU per apply as the worker does it (the change
 * derived, planned into ops, the ops packed: model/store/ops.ts encodeOps) and Redis's time per apply script call
 * (model/store/scripts/apply.lua, from Redis's own command times) split into the commands the script ran and the
 * rest: unpacking the ops (timed apart, the same packed ops unpacked by a script that does nothing else), and the
 * script's interpretation of the ops with its calls into Redis. Redis runs every client's commands on one thread,
 * so its time per apply bounds every write path's rate (the batch route, restore, rebuild). The applies go 50 at a
 * time on one connection, as the worker's lanes send them.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { computeChange, type EntityChange } from '../../model/derive/change.ts'
import { loadConfig } from '../../model/config.ts'
import type { WriteItem } from '../../model/jobs.ts'
import { parseProposal } from '../../model/proposal.ts'
import { openModel } from '../../model/services/runtime.ts'
import { encodeOps, type EncodedOps } from '../../model/store/ops.ts'
import { planChange } from '../../model/store/plan.ts'
import { parseUrn } from '../../model/urn.ts'
import { startEmbeddedRedis } from '../embeddedRedis.ts'
import { liveDataset, loadProposals, propertiesProposal } from './liveCatalogue.ts'
import { commandTimes, resetCommandStats } from './liveRedis.ts'
import { round } from './stats.ts'

const DATASETS = Number(process.env.APPLY_DATASETS ?? 5000)
const IN_FLIGHT = 50

const embedded = await startEmbeddedRedis({ dataDir: mkdtempSync(join(tmpdir(), 'svc-apply-')), appendFsync: 'everysec', binary: process.env.BENCH_REDIS_SERVER })
const redis = new Redis(embedded.localUrl)
const model = await openModel({ ...loadConfig({ LOG_LEVEL: 'warn' }), redisUrl: embedded.localUrl, searchEngine: 'native' }, redis)
const unpackOnly = await redis.script('LOAD', 'local ops = cmsgpack.unpack(ARGV[1]) return #ops') as string

/** Runs `f` over `list`, IN_FLIGHT at a time. */
async function inFlight<T>(list: readonly T[], f: (item: T, i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < list.length; i += IN_FLIGHT) await Promise.all(list.slice(i, i + IN_FLIGHT).map((item, k) => f(item, i + k)))
}

/** One step: plans each dataset's change (`proposals` of dataset i), applies them, and prints where the time went. */
async function step(name: string, proposals: (i: number) => unknown[]): Promise<void> {
  const items = Array.from({ length: DATASETS }, (_, i) => proposals(i).map((p) => parseProposal(model.registry, p)) as WriteItem[])
  const states = await Promise.all(items.map((list) => model.store.state(list[0]!.urn)))
  const t0 = performance.now()
  const changes: EntityChange[] = items.map((list, i) => computeChange(model.registry, parseUrn(model.registry, list[0]!.urn), states[i]!, list, { actor: 'urn:svc:corpuser:bench', time: Date.now() }))
  const t1 = performance.now()
  const planned = changes.map((change) => planChange(model.plan, change))
  const t2 = performance.now()
  const encoded: EncodedOps[] = planned.map((ops, i) => encodeOps([model.keys.meta(items[i]![0]!.urn)], ops))
  const t3 = performance.now()
  await resetCommandStats([redis])
  await inFlight(encoded, (e) => redis.evalsha(unpackOnly, 0, e.ops))
  const unpacking = (await commandTimes([redis], 20)).find((t) => t.command === 'evalsha')!.ms
  await resetCommandStats([redis])
  await inFlight(planned, (ops, i) => model.store.apply(items[i]![0]!.urn, states[i]!.rev, `bench-${name}-${i}#0`, ops))
  const times = await commandTimes([redis], 30)
  const script = times.find((t) => t.command === 'evalsha')!
  const inner = times.filter((t) => t.command !== 'evalsha')
  const innerMs = inner.reduce((n, t) => n + t.ms, 0)
  const us = (ms: number) => round((ms * 1000) / DATASETS)
  const args = encoded.reduce((n, e) => n + e.ops.length, 0) / DATASETS
  process.stdout.write(`${name}: ${round(planned.reduce((n, p) => n + p.length, 0) / DATASETS)} ops, ${round(args)} bytes packed an apply\n`)
  process.stdout.write(`  worker CPU per apply: derive ${us(t1 - t0)} us, plan ${us(t2 - t1)} us, pack ${us(t3 - t2)} us\n`)
  process.stdout.write(`  Redis per apply script call: ${us(script.ms)} us = commands ${us(innerMs)} us + unpacking the ops ${us(unpacking)} us + interpreting and calling ${us(script.ms - innerMs - unpacking)} us\n`)
  process.stdout.write(`  its commands: ${inner.slice(0, 10).map((t) => `${t.command} ${round(t.calls / DATASETS)}x ${us(t.ms)} us`).join(', ')}\n`)
}

try {
  await step('new dataset (properties, tags, owner)', (i) => loadProposals(i))
  await step('its datasetProperties changed', (i) => [propertiesProposal(liveDataset(i), i, 1)])
} finally {
  redis.disconnect()
  await embedded.stop()
}
