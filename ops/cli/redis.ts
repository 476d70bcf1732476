/**
 * Redis for the commands that work on storage directly (restore, token, queues): the connection comes from
 * REDIS_URL and the keys from KEY_PREFIX, exactly as the service reads them, and is closed when the command ends.
 */
import type { Redis } from 'ioredis'
import { loadConfig, type Config } from '../../model/config.ts'
import { openModel, type Model } from '../../model/runtime.ts'
import { connectForRequests } from '../../model/store/redis.ts'
import { Keys } from '../../model/store/keys.ts'
import { UsageError } from './args.ts'
import { loadRegistry } from '../../model/registryFile.ts'

/** Runs `fn` with a connection to REDIS_URL and the service's keys; the connection is closed afterwards. */
export async function withRedis<T>(fn: (redis: Redis, keys: Keys, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig()
  if (!config.redisUrl) throw new UsageError('REDIS_URL is not set: this command works on the service\'s Redis directly')
  const redis = connectForRequests(config.redisUrl, 'svc-cli')
  try {
    return await fn(redis, new Keys(config.keyPrefix), config)
  } finally {
    await redis.quit().catch(() => redis.disconnect())
  }
}

/** Runs `fn` with the model opened on REDIS_URL (registry file and search engine as the service configures them). */
export async function withModel<T>(fn: (model: Model) => Promise<T>): Promise<T> {
  return withRedis(async (redis, _keys, config) => fn(await openModel(config, redis, loadRegistry(config.registryFile, config.namespace))))
}
