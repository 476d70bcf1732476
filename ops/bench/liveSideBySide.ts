/** The live scenario's results of several engines (live.ts's JSON), side by side in one markdown table. */
import { round } from './stats.ts'

interface Latency { count: number; p50: number; p95: number; p99: number; http5xx: number; timeouts: number; otherErrors?: number }
export interface LiveRun {
  machine: { engineName: string; redis: string; topology: string; date: string; loadAverageAtStart: number }
  settings: { datasets: number; clients: number; seconds: number; writesPerSecond: number }
  load: { perSecond: number }
  memory: { perDataset: number; perDatasetWithoutQueue: number }
  queries: { count: number; perSecond: number }
  kinds: ({ kind: string } & Latency)[]
  writes: Latency & { perSecond: number }
  slowLog: { count: number; longestMs: number }
  redisCpuShare?: number[]
}

const ms = (x: number | undefined) => (x !== undefined && x !== null && Number.isFinite(x) ? String(round(x)) : '-')
const cell = (l: Latency | undefined) => (l ? `${ms(l.p50)} / ${ms(l.p95)} / ${ms(l.p99)} (${l.count}${l.http5xx + l.timeouts + (l.otherErrors ?? 0) ? `, ${l.http5xx + l.timeouts + (l.otherErrors ?? 0)} failed` : ''})` : '')

/** One table: a row per query kind and per figure, a column per engine. */
export function liveSideBySide(runs: readonly LiveRun[]): string {
  const s = runs[0]!.settings
  const head = `Live scenario, engines side by side (one after the other on this machine, shared with other work): ${s.datasets} datasets, ${s.clients} query loops for ${s.seconds} s, ${s.writesPerSecond} writes/s, ${runs[0]!.machine.topology}, ${runs.at(-1)!.machine.date}`
  const kinds = [...new Set(runs.flatMap((r) => r.kinds.map((k) => k.kind)))]
  const lines = [
    `| figure | ${runs.map((r) => `${r.machine.engineName} on Redis ${r.machine.redis}`).join(' | ')} |`,
    `|---|${runs.map(() => '---|').join('')}`,
    ...kinds.map((kind) => `| ${kind}: p50 / p95 / p99 ms (count) | ${runs.map((r) => cell(r.kinds.find((k) => k.kind === kind))).join(' | ')} |`),
    `| writes: p50 / p95 / p99 ms (count) | ${runs.map((r) => cell(r.writes)).join(' | ')} |`,
    `| writes applied per second | ${runs.map((r) => ms(r.writes.perSecond)).join(' | ')} |`,
    `| queries per second, all loops | ${runs.map((r) => ms(r.queries.perSecond)).join(' | ')} |`,
    `| Redis CPU during the run, share of a core (per master) | ${runs.map((r) => (r.redisCpuShare ?? []).map((b) => `${Math.round(b * 100)}%`).join(', ')).join(' | ')} |`,
    `| Redis commands over 20 ms (the longest, ms) | ${runs.map((r) => `${r.slowLog.count} (${ms(r.slowLog.longestMs)})`).join(' | ')} |`,
    `| load rate, datasets/s | ${runs.map((r) => ms(r.load.perSecond)).join(' | ')} |`,
    `| Redis memory per dataset, bytes (without the empty store and the queue) | ${runs.map((r) => `${ms(r.memory.perDataset)} (${ms(r.memory.perDatasetWithoutQueue)})`).join(' | ')} |`,
    `| load average at the start | ${runs.map((r) => ms(r.machine.loadAverageAtStart)).join(' | ')} |`,
  ]
  return `${head}\n\n${lines.join('\n')}\n`
}
