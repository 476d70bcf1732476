/**
 * The growth drill: a running service on a local Redis Cluster of 3 masters holding `datasets` datasets grows to
 * 4 masters and shrinks back to 3 (ops/clusterGrowth.ts) while `queryLoops` loops search without pause and a
 * writer updates datasets at `writesPerSecond`. It records every answer's status (a 5xx or a timeout is a
 * failure), times each move and how long search took to be exact again after it (sampled datasets found by
 * name, `*` counting every dataset), and whether the new master held data. The growth test runs it small
 * (test/faults/clusterGrowth.test.ts), `npm run bench:growth` at 20,000 datasets (ops/bench/clusterGrowth.ts).
 */
import { datasetProposal, datasetUrn } from './bench/data.ts'
import { growByOneMaster, keysOn, shrinkMaster } from './clusterGrowth.ts'
import type { LocalCluster } from './localCluster.ts'

export interface DrillOptions {
  url: string
  cluster: LocalCluster
  datasets: number
  queryLoops: number
  writesPerSecond: number
  /** Datasets checked (read back, found by name) after each move. */
  samples: number
  /** A request unanswered after this long counts as a timeout. */
  timeoutMs?: number
  log?: (line: string) => void
}

export interface DrillReport {
  ingestMs: number
  moves: { what: string; joinMs?: number; moveMs: number; removeMs?: number; searchExactAfterMs: number }[]
  /** Answers by status during the moves (0: no answer in time or connection error). */
  statuses: Record<string, number>
  /** Requests sent again after the server closed their keep-alive connection as they went out. */
  resent: number
  /** Up to 20 of the failed answers (5xx, timeouts), status and body. */
  failures: string[]
  writes: number
  queries: number
  newMasterKeys: number
  /** After each move (`samples` datasets), and after the load stopped (500): not read back, not found by name; `*` total. */
  checks: { notReadBack: number; notFound: number; starTotal: number }[]
}

/**
 * One request. A keep-alive connection the server closed as the request went out ("other side closed", a reset)
 * never reached the service: it is sent once more on a new connection (every request here is idempotent) and
 * counted apart; a timeout or any other failure is status 0.
 */
async function call(url: string, method: string, path: string, body: unknown, timeoutMs: number, resent = false): Promise<{ status: number; body: any; resent?: boolean }> {
  try {
    const res = await fetch(`${url}${path}`, {
      method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await res.text()
    let parsed: unknown = text
    try { parsed = JSON.parse(text) } catch { /* not JSON */ }
    return { status: res.status, body: parsed }
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? ''
    if (!resent && /UND_ERR_SOCKET|ECONNRESET|EPIPE/.test(cause)) return { ...(await call(url, method, path, body, timeoutMs, true)), resent: true }
    return { status: 0, body: `${String(err)} ${cause}` }
  }
}

const nameOf = (i: number): string => JSON.parse(datasetProposal(i).aspect.value).name as string

/** A search for dataset `i` by its name: its urn among the hits. */
async function foundByName(url: string, i: number, timeoutMs: number): Promise<boolean> {
  const res = await call(url, 'POST', '/entities?action=search', { input: nameOf(i), entity: 'dataset', start: 0, count: 50 }, timeoutMs)
  return res.status === 200 && (res.body.value.entities as string[]).includes(datasetUrn(i))
}

async function starTotal(url: string, timeoutMs: number): Promise<number> {
  const res = await call(url, 'POST', '/entities?action=search', { input: '*', entity: 'dataset', start: 0, count: 1 }, timeoutMs)
  return res.status === 200 ? Number(res.body.value.numEntities) : -1
}

export async function runGrowthDrill(o: DrillOptions): Promise<DrillReport> {
  const timeoutMs = o.timeoutMs ?? 30_000
  const log = o.log ?? (() => {})
  const report: DrillReport = { ingestMs: 0, moves: [], statuses: {}, resent: 0, failures: [], writes: 0, queries: 0, newMasterKeys: 0, checks: [] }
  const t0 = Date.now()
  for (let from = 0; from < o.datasets; from += 500) {
    const proposals = Array.from({ length: Math.min(500, o.datasets - from) }, (_, k) => datasetProposal(from + k))
    const res = await call(o.url, 'POST', '/aspects?action=ingestProposalBatch', { proposals }, 120_000)
    if (res.status !== 200) throw new Error(`ingest failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
  }
  report.ingestMs = Date.now() - t0
  log(`ingested ${o.datasets} datasets in ${report.ingestMs} ms`)

  let stop = false
  const record = (what: string, res: { status: number; body: unknown; resent?: boolean }) => {
    if (res.resent) report.resent++
    report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1
    if ((res.status === 0 || res.status >= 500) && report.failures.length < 20) report.failures.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
  }
  const queries = Array.from({ length: o.queryLoops }, async (_, loop) => {
    for (let n = 0; !stop; n++) {
      const i = (loop * 7919 + n * 104_729) % o.datasets
      const input = n % 4 === 0 ? '*' : nameOf(i)
      record('search', await call(o.url, 'POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 10 }, timeoutMs))
      report.queries++
    }
  })
  const writer = (async () => {
    const pending: Promise<void>[] = []
    for (let n = 0; !stop; n++) {
      const i = (n * 7_777) % o.datasets
      pending.push(call(o.url, 'POST', '/aspects?action=ingestProposal', { proposal: datasetProposal(i, n + 1) }, timeoutMs).then((res) => { record('write', res); report.writes++ }))
      await new Promise((r) => setTimeout(r, 1000 / o.writesPerSecond))
    }
    await Promise.all(pending)
  })()

  const sample = Array.from({ length: o.samples }, (_, k) => Math.floor((k * o.datasets) / o.samples))
  /** Waits until search is exact again; answers how long that took. */
  const settle = async (): Promise<number> => {
    const started = Date.now()
    for (;;) {
      const [total, found] = await Promise.all([starTotal(o.url, timeoutMs), Promise.all(sample.map((i) => foundByName(o.url, i, timeoutMs)))])
      if (total === o.datasets && found.every(Boolean)) return Date.now() - started
      if (Date.now() - started > 120_000) return -1
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const check = async (which: number[]) => {
    let notReadBack = 0
    let notFound = 0
    for (const i of which) {
      const read = await call(o.url, 'GET', `/entities/${encodeURIComponent(datasetUrn(i))}`, undefined, timeoutMs)
      if (read.status !== 200) notReadBack++
      if (!(await foundByName(o.url, i, timeoutMs))) notFound++
    }
    report.checks.push({ notReadBack, notFound, starTotal: await starTotal(o.url, timeoutMs) })
  }

  // Whatever a move throws, the load stops with it (a failed drill must not leave loops running).
  try {
    await new Promise((r) => setTimeout(r, 2000))
    const grown = await growByOneMaster(o.cluster)
    const grownExact = await settle()
    report.newMasterKeys = await keysOn(grown.port)
    report.moves.push({ what: 'grow 3 -> 4 masters', joinMs: grown.joinMs, moveMs: grown.moveMs, searchExactAfterMs: grownExact })
    log(`grew: joined in ${grown.joinMs} ms, slots moved in ${grown.moveMs} ms, search exact ${grownExact} ms later; new master holds ${report.newMasterKeys} keys`)
    await check(sample)
    await new Promise((r) => setTimeout(r, 2000))
    const shrunk = await shrinkMaster(o.cluster, grown.port)
    const shrunkExact = await settle()
    report.moves.push({ what: 'shrink 4 -> 3 masters', moveMs: shrunk.moveMs, removeMs: shrunk.removeMs, searchExactAfterMs: shrunkExact })
    log(`shrank: slots moved off in ${shrunk.moveMs} ms, node removed in ${shrunk.removeMs} ms, search exact ${shrunkExact} ms later`)
    await new Promise((r) => setTimeout(r, 1000))
  } finally {
    stop = true
    await Promise.all([...queries, writer])
  }
  // With the load stopped (no write refreshes anything), a wider sample: 500 datasets, many of them asked for
  // by the loops while their shard moved.
  const wide = Math.min(500, o.datasets)
  await check(Array.from({ length: wide }, (_, k) => Math.floor((k * o.datasets) / wide)))
  return report
}
