/**
 * `delete <urn> [--url URL] [--token T]`: hard delete through the API, as a DELETE proposal of the entity's key
 * aspect (the service then removes every aspect, version, edge, timeseries point and index entry of the entity).
 */
import { loadConfig } from '../../model/config.ts'
import { CatalogError } from '../../model/errors.ts'
import type { Registry } from '../../model/registry.ts'
import { registryOf } from '../../model/registryFile.ts'
import { parseUrn } from '../../model/urn.ts'
import { parse, UsageError } from './args.ts'
import { apiTarget, callApi, describeError } from './http.ts'

export const usage = 'delete <urn> [--url URL] [--token T]'

/** The proposal that hard-deletes the entity of `urn`; a urn that does not parse is a usage error. */
export function hardDeleteProposal(registry: Registry, urn: string): Record<string, string> {
  try {
    const { entity } = parseUrn(registry, urn)
    return { entityType: entity.name, entityUrn: urn, changeType: 'DELETE', aspectName: entity.keyAspect }
  } catch (err) {
    if (err instanceof CatalogError) throw new UsageError(err.message)
    throw err
  }
}

/** Runs the command; answers the exit code. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { url: { type: 'string' }, token: { type: 'string' } }, { min: 1, max: 1, name: '<urn>' })
  const proposal = hardDeleteProposal(registryOf(loadConfig()), positionals[0]!)
  const res = await callApi(apiTarget(values), 'POST', '/aspects?action=ingestProposal', { proposal })
  if (res.status !== 200) {
    process.stderr.write(`delete failed: ${describeError(res)}\n`)
    return 1
  }
  process.stdout.write(`deleted ${proposal.entityUrn}\n`)
  return 0
}
