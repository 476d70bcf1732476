/**
 * What a gateway process says of its own pauses and work, from its Prometheus metrics (prom-client's Node.js
 * defaults, `svc_` prefixed: model/metricsText.ts): garbage-collection time by kind, the event loop's delay (how long
 * a ready callback waited: what every request in the process waited too), and its CPU time (per request, the measure
 * of a change that is steadiest on a shared machine, whose throughput drifts from run to run). Read once before the run (which also resets
 * the delay histogram and starts it) and once after: the difference is the run's.
 */
import http from 'node:http'
import { send } from './load.ts'

export interface Pauses {
  /** GC: kind -> [pauses, seconds] since the process started. */
  gc: Map<string, [number, number]>
  /** Event-loop delay since the last read: p99 and max, seconds. */
  loopP99: number
  loopMax: number
  /** CPU seconds (user + system) since the process started. */
  cpu: number
}

export async function gatewayPauses(base: URL): Promise<Pauses> {
  const res = await send(base, new http.Agent(), { method: 'GET', path: '/metrics' }, 10_000)
  const gc = new Map<string, [number, number]>()
  let loopP99 = NaN
  let loopMax = NaN
  let cpu = NaN
  for (const line of res.body.split('\n')) {
    const m = /^svc_nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)/.exec(line)
    if (m) {
      const entry = gc.get(m[2]!) ?? [0, 0]
      entry[m[1] === 'count' ? 0 : 1] = Number(m[3])
      gc.set(m[2]!, entry)
    }
    const lag = /^svc_nodejs_eventloop_lag_(p99|max)_seconds (\S+)/.exec(line)
    if (lag?.[1] === 'p99') loopP99 = Number(lag[2])
    if (lag?.[1] === 'max') loopMax = Number(lag[2])
    const used = /^svc_process_cpu_seconds_total (\S+)/.exec(line)
    if (used) cpu = Number(used[1])
  }
  return { gc, loopP99, loopMax, cpu }
}

/**
 * The run's pauses of one gateway, in words: its CPU (share of a core, and per request of the `requests` it was
 * sent), GC by kind (count, total and share of the run) and the loop's delay.
 */
export function describePauses(before: Pauses, after: Pauses, seconds: number, requests: number): string {
  const kinds = [...after.gc].map(([kind, [n, s]]) => {
    const [n0, s0] = before.gc.get(kind) ?? [0, 0]
    return `${kind} ${n - n0} (${Math.round((s - s0) * 1000)} ms, ${((100 * (s - s0)) / seconds).toFixed(1)}%)`
  })
  const cpu = after.cpu - before.cpu
  return `CPU ${Math.round((100 * cpu) / seconds)}% of a core, ${((1000 * cpu) / Math.max(1, requests)).toFixed(2)} ms a request; GC ${kinds.join(', ')}; event-loop delay p99 ${Math.round(after.loopP99 * 1000)} ms, max ${Math.round(after.loopMax * 1000)} ms`
}
