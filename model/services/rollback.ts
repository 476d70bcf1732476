/**
 * Rollback of an ingestion run: every aspect the run wrote goes back to the version before it, or away if the run
 * created it (and the entity too, when the run created it). The run's record (`run:<id>` in each shard, written by
 * the apply script) says which entities to visit; the rollback itself is a write item per entity, applied by the workers
 * in partition order like any other write.
 */
import type { WriteItem } from '../jobs.ts'
import type { Registry } from '../registry.ts'
import { SEP, type Keys } from '../store/keys.ts'
import type { RedisClient } from '../store/redis.ts'
import { parseUrn } from '../urn.ts'

/** The write items rolling back `runId` (one per entity the run touched, in any shard). */
export async function rollbackItems(redis: RedisClient, keys: Keys, registry: Registry, runId: string): Promise<WriteItem[]> {
  const members = (await Promise.all(keys.allShards().map((shard) => redis.smembers(keys.run(shard, runId))))).flat()
  const urns = [...new Set(members.map((m) => m.slice(0, m.indexOf(SEP))))].sort()
  return urns.map((urn) => ({ op: 'rollback', urn, entityType: parseUrn(registry, urn).entity.name, runId }))
}

/** Forgets a run once it is rolled back (its record in every shard). */
export async function forgetRun(redis: RedisClient, keys: Keys, runId: string): Promise<void> {
  await Promise.all(keys.allShards().map((shard) => redis.del(keys.run(shard, runId))))
}
