/**
 * The model wired to a Redis connection: registry, keys, search engine, entity store and the planning context.
 * Gateway, workers and ops all open it the same way, on one server or on a cluster.
 */
import type { Config } from '../config.ts'
import type { Registry } from '../registry.ts'
import { registryOf } from '../registryFile.ts'
import type { SearchEngine } from '../search/engine.ts'
import { selectEngine } from '../search/select.ts'
import { SearchService } from '../search/service.ts'
import { EdgeStore } from '../store/edgeStore.ts'
import { EntityStore } from '../store/entityStore.ts'
import { Keys } from '../store/keys.ts'
import { ensureLayout } from '../store/layout.ts'
import type { PlanContext } from '../store/plan.ts'
import { masters, type RedisClient } from '../store/redis.ts'
import type { Durability } from '../store/script.ts'

export interface Model {
  config: Config
  redis: RedisClient
  registry: Registry
  keys: Keys
  engine: SearchEngine
  store: EntityStore
  edges: EdgeStore
  plan: PlanContext
  search: SearchService
}

/** Whether every master has WAITAOF (Redis 7.2 and later). */
async function hasWaitAof(redis: RedisClient): Promise<boolean> {
  const versions = await Promise.all((await masters(redis)).map(async (node) => /redis_version:(\d+)\.(\d+)/.exec(await node.info('server'))))
  return versions.every((m) => m !== null && (Number(m[1]) > 7 || (Number(m[1]) === 7 && Number(m[2]) >= 2)))
}

export interface OpenOptions {
  registry?: Registry
  /** Check (and on a new store, record) the key layout; only the migration opens an older store. */
  checkLayout?: boolean
}

/** Opens the model on `redis` (the registry file and engine choice come from `config`). */
export async function openModel(config: Config, redis: RedisClient, options: OpenOptions = {}): Promise<Model> {
  const registry = options.registry ?? registryOf(config)
  const keys = new Keys(config.keyPrefix, config.shards)
  if (options.checkLayout !== false) await ensureLayout(redis, keys)
  const engine = await selectEngine(config, redis, registry, keys)
  const plan: PlanContext = {
    registry, keys, changeLogMaxLen: config.changeLogMaxLen,
    documentOps: (entity, urn, before, after) => engine.documentOps(entity, urn, before, after),
    restateDocumentOps: (entity, urn, doc) => engine.restateDocumentOps(entity, urn, doc),
    purgeOps: (entity, urn) => engine.purgeOps(entity, urn),
  }
  const durability: Durability = {
    replicas: config.replicaAcks,
    timeoutMs: config.replicaAckTimeoutMs,
    waitAof: config.replicaAcks > 0 && await hasWaitAof(redis),
  }
  return {
    config, redis, registry, keys, engine, plan,
    store: new EntityStore(redis, keys, durability),
    edges: new EdgeStore(redis, keys),
    search: new SearchService(redis, registry, keys, engine, config.facetValues),
  }
}
