/**
 * Redis for the commands that work on storage directly (restore, token, queues): the connection comes from
 * REDIS_URL and the keys from KEY_PREFIX, exactly as the service reads them, and is closed when the command ends.
 */
import { loadConfig, type Config } from '../../model/config.ts'
import { openModel, type Model } from '../../model/runtime.ts'
import { connectForRequests, type RedisClient } from '../../model/store/redis.ts'
import { Keys } from '../../model/store/keys.ts'
import { UsageError } from './args.ts'

/** Runs `fn` with a connection to REDIS_URL and the service's keys; the connection is closed afterwards. */
export async function withRedis<T>(fn: (redis: RedisClient, keys: Keys, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig()
  if (!config.redisUrl && config.redisCluster.length === 0) throw new UsageError('REDIS_URL (or REDIS_CLUSTER) is not set: this command works on the service\'s Redis directly')
  const redis = connectForRequests(config, 'svc-cli')
  try {
    return await fn(redis, new Keys(config.keyPrefix, config.shards), config)
  } finally {
    await redis.quit().catch(() => redis.disconnect())
  }
}

/** Runs `fn` with the model opened on REDIS_URL (registry file and search engine as the service configures them). */
export async function withModel<T>(fn: (model: Model) => Promise<T>): Promise<T> {
  return withRedis(async (redis, _keys, config) => fn(await openModel(config, redis)))
}
