/**
 * `npm run bench`: first the live scenario (live.ts) once per engine, with both side by side
 * (ops/bench/results/live-side-by-side.md); then the benchmark (main.ts) once per engine, one after the other on
 * the same machine and the same generated data, then the figures of both side by side
 * (ops/bench/results/side-by-side-<module version>.md), with the engine and module version named. BENCH_ENGINES
 * (`native,redisearch` when a module file is found, else `native`); every setting of live.ts and main.ts applies
 * to both runs (BENCH_SEARCH_ONLY=1 for search figures alone, BENCH_REDIS_SERVER and REDISEARCH_MODULE for a module
 * version and the server it needs, BENCH_TOPOLOGY=cluster). BENCH_LIVE=0 leaves the live scenario out;
 * BENCH_LIVE_ONLY=1 (`npm run bench:live`) runs it alone.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { liveSideBySide, type LiveRun } from './liveSideBySide.ts'
import { round } from './stats.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const RESULTS = join(ROOT, 'ops', 'bench', 'results')
const module = process.env.REDISEARCH_MODULE ?? '/opt/redisearch/redisearch.so'
const engines = (process.env.BENCH_ENGINES ?? (existsSync(module) ? 'native,redisearch' : 'native')).split(',')
if (!engines.includes('redisearch')) process.stderr.write(`[bench] no RediSearch module at ${module}: the native engine alone\n`)

interface Row { figure: string; value: number; unit: string; p50?: number }
interface Run { machine: { engineName: string; redis: string; moduleVersion?: string; date: string; rounds: number; datasets: number }; rows: Row[] }

/** Runs `script` for `engine` (its results named `out`) and answers what it wrote. */
async function runFor<T>(script: string, engine: string, out: string): Promise<T> {
  const code = await new Promise<number | null>((resolve) => {
    spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, BENCH_ENGINE: engine, BENCH_OUT: out }, stdio: 'inherit' })
      .once('exit', resolve)
  })
  if (code !== 0) throw new Error(`${script} for engine ${engine} exited with ${code}`)
  return JSON.parse(readFileSync(join(RESULTS, `${out}.json`), 'utf8')) as T
}

if (process.env.BENCH_LIVE !== '0') {
  const cluster = process.env.BENCH_TOPOLOGY === 'cluster' ? '-cluster' : ''
  const lives: LiveRun[] = []
  for (const engine of engines) lives.push(await runFor<LiveRun>('ops/bench/live.ts', engine, `live-${engine}${cluster}`))
  const text = liveSideBySide(lives)
  const file = join(RESULTS, `live-side-by-side${cluster}.md`)
  writeFileSync(file, text)
  process.stdout.write(`\n${text}\nwritten to ${file}\n`)
  if (process.env.BENCH_LIVE_ONLY === '1') process.exit(0)
}

const runs: Run[] = []
for (const engine of engines) runs.push(await runFor<Run>('ops/bench/main.ts', engine, `run-${engine}`))

// Figures of every run, in the first run's order; for redisearch beside native, the ratio of the two.
const show = (r: Row | undefined) => (r ? `${round(r.value)} ${r.unit}` : '')
const figures = [...new Set(runs.flatMap((r) => r.rows.map((x) => x.figure.replace(/; engine \w+\)$/, ')'))))]
const find = (run: Run, figure: string) => run.rows.find((x) => x.figure.replace(/; engine \w+\)$/, ')') === figure)
const names = runs.map((r) => `${r.machine.engineName} on Redis ${r.machine.redis}`)
const native = runs.findIndex((r) => r.machine.engineName === 'native')
const search = runs.findIndex((r) => r.machine.engineName.startsWith('redisearch'))
const table = [
  `| figure | ${names.join(' | ')} |${native >= 0 && search >= 0 ? ' redisearch / native |' : ''}`,
  `|---|${names.map(() => '---|').join('')}${native >= 0 && search >= 0 ? '---|' : ''}`,
  ...figures.map((f) => {
    const cells = runs.map((r) => show(find(r, f)))
    let ratio = ''
    if (native >= 0 && search >= 0) {
      const a = find(runs[search]!, f)
      const b = find(runs[native]!, f)
      if (a && b && b.value) ratio = ` ${round(a.value / b.value)} |`
      else ratio = ' |'
    }
    return `| ${f} | ${cells.join(' | ')} |${ratio}`
  }),
].join('\n')
const version = runs[search]?.machine.moduleVersion ?? 'none'
const head = `Engines side by side, one after the other on this machine, ${runs[0]!.machine.datasets} datasets, medians of ${runs[0]!.machine.rounds} rounds, ${runs.at(-1)!.machine.date}`
const file = join(RESULTS, `side-by-side-${version}.md`)
writeFileSync(file, `${head}\n\n${table}\n`)
process.stdout.write(`\n${head}\n\n${table}\n\nwritten to ${file}\n`)
