/**
 * `node ops/bench/kindProbe.ts`: where one query's Redis time goes, per kind of the live scenario (liveQueries.ts).
 * Against a running gateway (PROBE_URL, default http://127.0.0.1:7792) and its Redis (PROBE_REDIS, ports on
 * 127.0.0.1, comma-separated: one server, default 7791, e.g. a store kept by BENCH_LIVE_DATA_DIR, or a cluster's
 * masters, as BENCH_LIVE_HOLD=1 prints them), it asks PROBE_N queries of each kind (PROBE_KINDS, a regex), one at a
 * time, drawn with PROBE_SEED, and for each prints the answer's status and time and every Redis command it caused
 * (SLOWLOG at threshold 0, reset before each query: the wall time of each command, a script's including the commands
 * it called, and on a busy machine the time its server waited for a core), the total and those over PROBE_MIN_US
 * (300) us; PROBE_QUIET=1 prints one line per kind instead, with the slow log left alone: the answer's median time,
 * and Redis's CPU per query (INFO cpu, all servers, with whatever else they did meanwhile). It changes the servers' slow-log settings while it runs and puts them
 * back after.
 */
import http from 'node:http'
import { Redis } from 'ioredis'
import { LIVE_KINDS } from './liveQueries.ts'
import { seeded as randomOf } from './liveCatalogue.ts'
import { send } from './load.ts'

const servers = (process.env.PROBE_REDIS ?? '7791').split(',').map((port) => new Redis(Number(port)))
const base = new URL(process.env.PROBE_URL ?? 'http://127.0.0.1:7792')
const agent = new http.Agent({ keepAlive: true })
const rnd = randomOf(Number(process.env.PROBE_SEED ?? 7))
const settings = await Promise.all(servers.map(async (r) => [((await r.config('GET', 'slowlog-log-slower-than')) as string[])[1]!, ((await r.config('GET', 'slowlog-max-len')) as string[])[1]!]))
const quiet = process.env.PROBE_QUIET === '1'
// Quiet, the slow log stays as it was (logging every command costs Redis CPU of its own).
if (!quiet) for (const r of servers) await r.config('SET', 'slowlog-log-slower-than', '0').then(() => r.config('SET', 'slowlog-max-len', '10000'))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const kinds = LIVE_KINDS.filter((k) => new RegExp(process.env.PROBE_KINDS ?? '.').test(k.kind))
/** Redis's CPU seconds so far, all servers (user + system). */
const cpu = async () => (await Promise.all(servers.map(async (r) => {
  const info = await r.info('cpu')
  return Number(/used_cpu_user:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)![1])
}))).reduce((a, b) => a + b, 0)
/** The gateway's CPU seconds so far (its /metrics). */
const gatewayCpu = async () => {
  const res = await send(base, agent, { method: 'GET', path: '/metrics' })
  return Number(/^svc_process_cpu_seconds_total ([\d.e+-]+)$/m.exec(res.body)?.[1] ?? NaN)
}
for (const kind of kinds) {
  const cpuBefore = await cpu()
  const gatewayBefore = await gatewayCpu()
  const times: number[] = []
  for (let i = 0; i < Number(process.env.PROBE_N ?? 3); i++) {
    const req = kind.draw(rnd, 100_000)
    if (!quiet) for (const r of servers) await r.slowlog('RESET')
    const t0 = performance.now()
    const res = await send(base, agent, req)
    const ms = performance.now() - t0
    const logs = quiet ? [] : await Promise.all(servers.map(async (r) => (await r.slowlog('GET', 10000)) as [number, number, number, string[]][]))
    const mine = logs.flat().filter((e) => !String(e[3][0]).toLowerCase().startsWith('slowlog'))
    const total = mine.reduce((n, e) => n + e[2], 0)
    times.push(ms)
    if (quiet) continue
    const big = mine.filter((e) => e[2] > Number(process.env.PROBE_MIN_US ?? 300)).reverse().map((e) => `${(e[2] / 1000).toFixed(1)}ms ${e[3].slice(0, 3).join(' ').slice(0, 90)}`)
    console.log(`${kind.kind} | ${res.status} ${ms.toFixed(1)} ms | redis ${(total / 1000).toFixed(1)} ms in ${mine.length} cmds | ${req.body?.slice(0, 120)}`)
    for (const b of big) console.log('    ', b)
  }
  const cpuMs = ((await cpu()) - cpuBefore) * 1000 / times.length
  const gatewayMs = ((await gatewayCpu()) - gatewayBefore) * 1000 / times.length
  if (quiet) console.log(`${kind.kind.padEnd(45)} | answer ${median(times).toFixed(1)} ms (median of ${times.length}) | Redis CPU ${cpuMs.toFixed(2)} ms, gateway CPU ${gatewayMs.toFixed(2)} ms a query`)
}
for (const [k, r] of servers.entries()) await r.config('SET', 'slowlog-log-slower-than', settings[k]![0]!).then(() => r.config('SET', 'slowlog-max-len', settings[k]![1]!))
for (const r of servers) r.disconnect()
agent.destroy()
