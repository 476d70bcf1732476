/**
 * Rollback of an ingestion run: every aspect the run wrote goes back to the version before it, or away if the run
 * created it (and the entity too, when the run created it). The run's record (`run:<id>`, written by the apply
 * script) says which entities to visit; the rollback itself is a write item per entity, applied by the workers
 * in partition order like any other write.
 */
import type { Redis } from 'ioredis'
import type { WriteItem } from './jobs.ts'
import type { Registry } from './registry.ts'
import { SEP, type Keys } from './store/keys.ts'
import { parseUrn } from './urn.ts'

/** The write items rolling back `runId` (one per entity the run touched). */
export async function rollbackItems(redis: Redis, keys: Keys, registry: Registry, runId: string): Promise<WriteItem[]> {
  const members = await redis.smembers(keys.run(runId))
  const urns = [...new Set(members.map((m) => m.slice(0, m.indexOf(SEP))))].sort()
  return urns.map((urn) => ({ op: 'rollback', urn, entityType: parseUrn(registry, urn).entity.name, runId }))
}

/** Forgets a run once it is rolled back. */
export async function forgetRun(redis: Redis, keys: Keys, runId: string): Promise<void> {
  await redis.del(keys.run(runId))
}
