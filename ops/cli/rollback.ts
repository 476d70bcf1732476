/** `rollback <runId> [--dry-run] [--url URL] [--token T]`: rolls an ingestion run back through the API (admin token). */
import { parse } from './args.ts'
import { apiTarget, callApi, describeError } from './http.ts'

export const usage = 'rollback <runId> [--dry-run] [--url URL] [--token T]'

/** Runs the command; answers the exit code. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    'dry-run': { type: 'boolean', default: false }, url: { type: 'string' }, token: { type: 'string' },
  }, { min: 1, max: 1, name: '<runId>' })
  const runId = positionals[0]!
  const res = await callApi(apiTarget(values), 'POST', '/operations?action=rollback', { runId, dryRun: values['dry-run'] })
  if (res.status !== 200) {
    process.stderr.write(`rollback failed: ${describeError(res)}\n`)
    return 1
  }
  const value = res.body.value as { entities: number | string[]; aspectsReverted?: number }
  if (Array.isArray(value.entities)) {
    process.stdout.write(`run ${runId} would roll back ${value.entities.length} entities:\n${value.entities.map((u) => `  ${u}\n`).join('')}`)
  } else {
    process.stdout.write(`run ${runId} rolled back: ${value.entities} entities, ${value.aspectsReverted ?? 0} aspects reverted\n`)
  }
  return 0
}
