/**
 * Search measured per query kind on the loaded catalogue (generated datasets, data.ts): for each kind, latency at
 * one client (each query asked `repeat` times right after a write to one dataset; p50 over all, and the first ask
 * alone: cold, since nothing computed before the write may be reused) and throughput at 16 clients. The kinds are those the engines must all answer fast: match-all, a word every dataset has, a frequent
 * word, a prefix, a rare word, one dataset's name, `field:value`, a filter of each condition kind, deep pages.
 */
import http from 'node:http'
import { datasetProposal } from './data.ts'
import { runLoad, send } from './load.ts'
import { median, percentile } from './stats.ts'

export interface KindResult {
  kind: string
  p50: number
  p99: number
  coldMs: number
  perSecond16: number
  p50at16: number
  errors: number
}

const S = '/entities?action=search'
/** Revisions of the dataset written before each kind (every write changes its description). */
let touches = 0
const filter = (field: string, condition: string, value: string) => ({ or: [{ and: [{ field, condition, value }] }] })

/** The query kinds, each one request body (entity dataset). */
export function searchKinds(datasets: number): { kind: string; body: Record<string, unknown> }[] {
  const some = Math.min(4242, datasets - 1)
  const name = (JSON.parse(datasetProposal(some).aspect.value) as { name: string }).name
  const q = (input: string, extra: Record<string, unknown> = {}) => ({ input, entity: 'dataset', start: 0, count: 10, ...extra })
  return [
    { kind: 'match-all *', body: q('*') },
    { kind: 'word in every dataset ("table")', body: q('table') },
    { kind: 'frequent word ("orders")', body: q('orders') },
    { kind: 'two words ("customers events")', body: q('customers events') },
    { kind: 'prefix ("invo")', body: q('invo') },
    { kind: `rare word ("${some}")`, body: q(String(some)) },
    { kind: `one dataset's name ("${name}")`, body: q(name) },
    { kind: 'field:value (platform:kafka)', body: q('platform:kafka') },
    { kind: 'filter EQUAL (refunds, platform hive, from 20)', body: q('refunds', { start: 20, filter: filter('platform', 'EQUAL', 'urn:svc:dataPlatform:hive') }) },
    { kind: 'filter START_WITH (* , name db4)', body: q('*', { filter: filter('name', 'START_WITH', 'db4') }) },
    { kind: 'filter CONTAIN (* , name _ledger_)', body: q('*', { filter: filter('name', 'CONTAIN', '_ledger_') }) },
    { kind: 'filter END_WITH (orders, name 7)', body: q('orders', { filter: filter('name', 'END_WITH', '7') }) },
    { kind: 'filter GREATER_THAN (* , name > db48)', body: q('*', { filter: filter('name', 'GREATER_THAN', 'db48') }) },
    { kind: 'deep page (*, from 5000)', body: q('*', { start: 5000 }) },
    { kind: 'deep page ("orders", from 2000)', body: q('orders', { start: 2000 }) },
  ]
}

/** Measures every kind: `repeat` asks at one client, then `requests16` requests at 16 clients. */
export async function measureSearchKinds(base: string, datasets: number, repeat: number, requests16: number): Promise<KindResult[]> {
  const url = new URL(base)
  const results: KindResult[] = []
  // One request first, so that connecting and compiling in the gateway is not any kind's first ask.
  await runLoad(base, 1, 5, () => ({ method: 'POST', path: S, body: JSON.stringify({ input: 'warm up', entity: 'dataset', start: 0, count: 1 }) }))
  for (const { kind, body } of searchKinds(datasets).filter((k) => new RegExp(process.env.BENCH_KINDS ?? ".").test(k.kind))) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const latencies: number[] = []
    let errors = 0
    // A write first: the index changed, so the first ask below is answered from scratch (in every round).
    const touched = await send(url, agent, { method: 'POST', path: '/aspects?action=ingestProposal', body: JSON.stringify({ proposal: datasetProposal(datasets - 1, 1000 + ++touches) }) })
    if (touched.status !== 200) errors++
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now()
      const res = await send(url, agent, { method: 'POST', path: S, body: JSON.stringify(body) })
      latencies.push(performance.now() - t0)
      if (res.status !== 200) errors++
    }
    agent.destroy()
    const load = await runLoad(base, 16, requests16, () => ({ method: 'POST', path: S, body: JSON.stringify(body) }))
    results.push({ kind, p50: percentile(latencies, 50), p99: percentile(latencies, 99), coldMs: latencies[0]!, perSecond16: load.perSecond, p50at16: load.p50, errors: errors + load.errors })
  }
  return results
}

/** Medians over rounds, kind by kind. */
export function medianKinds(rounds: KindResult[][]): KindResult[] {
  return rounds[0]!.map((first, i) => {
    const of = (f: (r: KindResult) => number) => median(rounds.map((r) => f(r[i]!)))
    return { kind: first.kind, p50: of((r) => r.p50), p99: of((r) => r.p99), coldMs: of((r) => r.coldMs), perSecond16: of((r) => r.perSecond16), p50at16: of((r) => r.p50at16), errors: rounds.reduce((a, r) => a + r[i]!.errors, 0) }
  })
}
