/**
 * `npm run bench:cluster`: the benchmark on one redis-server and on a local Redis Cluster of 3 masters (16 shards),
 * one after the other on the same machine and data, then each figure of the cluster run as a ratio of the
 * standalone one, written to ops/bench/results/cluster-vs-standalone.md. On one machine a cluster cannot be faster
 * (its nodes share the cores); the ratios show what sharding costs.
 */
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { round } from './stats.ts'

interface Row { figure: string; value: number; unit: string; p50?: number }
const ENGINE = process.env.BENCH_ENGINE ?? 'native'
const results = join('ops', 'bench', 'results')

async function runBench(topology: string): Promise<void> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./main.ts', import.meta.url))], { env: { ...process.env, BENCH_TOPOLOGY: topology, BENCH_OUT: `topology-${ENGINE}-${topology}` }, stdio: 'inherit' })
  const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? 1)))
  if (code !== 0) throw new Error(`the ${topology} benchmark failed (exit ${code})`)
}

await runBench('standalone')
await runBench('cluster')
const load = (name: string) => (JSON.parse(readFileSync(join(results, `${name}.json`), 'utf8')) as { rows: Row[] }).rows
const standalone = new Map(load(`topology-${ENGINE}-standalone`).map((r) => [r.figure, r]))
const lowerIsBetter = (unit: string) => unit.startsWith('ms') || unit.startsWith('s ') || unit === 'bytes'
const lines = load(`topology-${ENGINE}-cluster`).flatMap((r) => {
  const s = standalone.get(r.figure)
  if (!s) return []
  // Higher is better: cluster/standalone; for times and memory, standalone/cluster (so >= 1 means as good).
  const ratio = lowerIsBetter(r.unit) ? s.value / r.value : r.value / s.value
  return [`| ${r.figure} | ${round(s.value)} ${s.unit} | ${round(r.value)} ${r.unit} | ${round(ratio)} |`]
})
const table = ['| figure | one server | cluster (3 masters, 16 shards) | cluster vs one server (1 = as good) |', '|---|---|---|---|', ...lines].join('\n')
writeFileSync(join(results, 'cluster-vs-standalone.md'), `Engine ${ENGINE}; same machine, one run after the other, ${new Date().toISOString()}\n\n${table}\n`)
process.stdout.write(`\n${table}\n\nwritten to ${join(results, 'cluster-vs-standalone.md')}\n`)
