/**
 * Chooses the search engine at start-up: `redisearch` when the server has the search module (MODULE LIST) and
 * configuration allows it, else `native`. SEARCH_ENGINE=native|redisearch overrides the probe.
 */
import type { Config } from '../config.ts'
import type { Registry } from '../registry.ts'
import type { Keys } from '../store/keys.ts'
import { hasSearchModule, type RedisClient } from '../store/redis.ts'
import type { SearchEngine } from './engine.ts'
import { NativeEngine } from './native/engine.ts'
import { RediSearchEngine } from './redisearch/engine.ts'

export async function selectEngine(config: Config, redis: RedisClient, registry: Registry, keys: Keys): Promise<SearchEngine> {
  const choice = config.searchEngine
  const available = choice === 'native' ? false : await hasSearchModule(redis)
  if (choice === 'redisearch' && !available) throw new Error('SEARCH_ENGINE=redisearch but the Redis server has no search module')
  const engine: SearchEngine = available ? new RediSearchEngine(config, registry, keys) : new NativeEngine(redis, registry, keys, { bitmapMin: config.nativeBitmapMin, maxValues: config.maxFilterValues, tallyMin: config.nativeTallyMin })
  await engine.ensureIndexes()
  return engine
}
