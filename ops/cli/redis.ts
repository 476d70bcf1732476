/**
 * Redis for the commands that work on storage directly (restore, token, queues): the connection comes from
 * REDIS_CLUSTER or REDIS_URL, or else from the `npm start` running on DATA_DIR (its embedded redis-server), and the keys from
 * KEY_PREFIX, exactly as the service reads them; it is closed when the command ends.
 */
import { resolve } from 'node:path'
import { loadConfig, type Config } from '../../model/config.ts'
import { openModel, type Model } from '../../model/services/runtime.ts'
import { connectForRequests, type RedisClient } from '../../model/store/redis.ts'
import { Keys } from '../../model/store/keys.ts'
import { runningInstance } from '../instance.ts'

/** REDIS_URL, or the embedded Redis of the `npm start` running on the data folder. */
export function redisUrlOf(config: Config): string {
  if (config.redisUrl) return config.redisUrl
  const running = runningInstance(config.dataDir)
  if (running?.redisUrl) return running.redisUrl
  throw new Error(`REDIS_URL is not set and no npm start runs on the data folder ${resolve(config.dataDir)}: start the service (npm start), or set REDIS_URL (and DATA_DIR if it uses another folder)`)
}

/** Runs `fn` with a connection to REDIS_URL and the service's keys; the connection is closed afterwards. */
export async function withRedis<T>(fn: (redis: RedisClient, keys: Keys, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig()
  if (config.redisCluster.length === 0) config.redisUrl = redisUrlOf(config)
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
