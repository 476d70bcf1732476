/**
 * The model wired to a Redis connection: registry, keys, search engine, entity store and the planning context.
 * Gateway, workers and ops all open it the same way.
 */
import type { Redis } from 'ioredis'
import type { Config } from './config.ts'
import type { Registry } from './registry.ts'
import { loadRegistry } from './registryFile.ts'
import type { SearchEngine } from './search/engine.ts'
import { selectEngine } from './search/select.ts'
import { SearchService } from './search/service.ts'
import { EdgeStore } from './store/edgeStore.ts'
import { EntityStore } from './store/entityStore.ts'
import { Keys } from './store/keys.ts'
import type { PlanContext } from './store/plan.ts'

export interface Model {
  config: Config
  redis: Redis
  registry: Registry
  keys: Keys
  engine: SearchEngine
  store: EntityStore
  edges: EdgeStore
  plan: PlanContext
  search: SearchService
}

/** Opens the model on `redis` (the registry file and engine choice come from `config`). */
export async function openModel(config: Config, redis: Redis, registry: Registry = loadRegistry(config.registryFile)): Promise<Model> {
  const keys = new Keys(config.keyPrefix)
  const engine = await selectEngine(config, redis, registry, keys)
  const plan: PlanContext = {
    registry, keys, changeLogMaxLen: config.changeLogMaxLen,
    documentOps: (entity, urn, before, after) => engine.documentOps(entity, urn, before, after),
  }
  return { config, redis, registry, keys, engine, store: new EntityStore(redis, keys), edges: new EdgeStore(redis, keys), plan, search: new SearchService(redis, registry, keys, engine) }
}
