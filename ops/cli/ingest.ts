/**
 * `ingest <file...> [--url URL] [--token T] [--batch N]`: sends upstream files (Avro-JSON MCE/MCP lists or single
 * records, and `*.requests.json` lists) through the HTTP API as `ingestProposalBatch` requests of N proposals.
 * Batches go one after another so that records of one entity are applied in file order.
 */
import { readFileSync } from 'node:fs'
import { loadConfig } from '../../model/config.ts'
import { registryOf } from '../../model/registryFile.ts'
import { parse, positiveInt, UsageError } from './args.ts'
import { batchesOf } from './batches.ts'
import { apiTarget, callApi, describeError, type ApiTarget } from './http.ts'
import { startProgress } from './progress.ts'
import { entityTypeOf, recordsOf, unitsOf, type Unit } from './records.ts'
import { formatSummary, summarize, type Outcome } from './summary.ts'

export const usage = 'ingest <file...> [--url URL] [--token T] [--batch N]'

/** Reads and parses one input file; a missing file is a usage error, bad JSON a plain one. */
function readJson(file: string): unknown {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`)
  }
}

/** Sends one batch; answers one outcome per proposal, or the error that should stop the run. */
async function sendBatch(target: ApiTarget, batch: Unit[]): Promise<{ outcomes: Outcome[]; fatal?: Outcome }> {
  const sources = batch.flatMap((u) => u.proposals.map(() => u.source))
  const types = batch.flatMap((u) => u.proposals.map((p) => entityTypeOf(p)))
  // A service that cannot be reached ends the run with one line (the dispatcher prints the error), not a
  // rejection per proposal.
  const res = await callApi(target, 'POST', '/aspects?action=ingestProposalBatch', { proposals: batch.flatMap((u) => u.proposals) })
  if (res.status !== 200) {
    const failure: Outcome = { accepted: false, code: res.body?.code ?? `HTTP_${res.status}`, message: describeError(res) }
    return { outcomes: types.map((entityType) => ({ ...failure, entityType })), fatal: res.status === 401 || res.status === 403 || res.status === 413 ? failure : undefined }
  }
  const results = res.body.value.results as { index: number; status: number; error?: { code: string; message: string } }[]
  return {
    outcomes: results.map((r) => r.status === 200
      ? { accepted: true }
      : { accepted: false, code: r.error?.code, message: `${sources[r.index]}: ${r.error?.message ?? `status ${r.status}`}`, entityType: types[r.index] }),
  }
}

/** Runs the command; answers the exit code (0 when every proposal was accepted). */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    url: { type: 'string' }, token: { type: 'string' }, batch: { type: 'string' },
  }, { min: 1, max: Infinity, name: '<file>' })
  const size = positiveInt(values.batch, 'batch', 1000)
  const target = apiTarget(values)
  const registry = registryOf(loadConfig())

  const outcomes: Outcome[] = []
  const units: Unit[] = []
  for (const file of positionals) {
    const converted = unitsOf(registry, file, recordsOf(readJson(file)))
    units.push(...converted.units)
    outcomes.push(...converted.rejected.map((r) => ({ accepted: false, code: r.code, message: r.message, entityType: r.entityType })))
  }
  const total = units.reduce((n, u) => n + u.proposals.length, 0)
  const progress = startProgress('ingest', total)
  let fatal: Outcome | undefined
  for (const batch of batchesOf(units, size)) {
    const count = batch.reduce((n, u) => n + u.proposals.length, 0)
    if (fatal) {
      outcomes.push(...batch.flatMap((u) => u.proposals.map((p) => ({ ...fatal!, message: `not sent after: ${fatal!.message}`, entityType: entityTypeOf(p) }))))
      continue
    }
    const sent = await sendBatch(target, batch)
    outcomes.push(...sent.outcomes)
    fatal = sent.fatal
    progress.tick(count)
  }
  progress.done()
  const summary = summarize(outcomes)
  process.stdout.write(formatSummary(summary))
  process.stdout.write(`${total} proposals (one per aspect) in ${(progress.elapsedMs / 1000).toFixed(1)}s\n`)
  return summary.rejected === 0 ? 0 : 1
}
