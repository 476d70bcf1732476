/** Looking at what a test's key prefix holds in Redis (to prove that nothing was written), on every master. */
import { Redis } from 'ioredis'
import { scanKeys, type RedisClient } from '../../model/store/redis.ts'

/** Every key under `prefix` except the write queues' own (BullMQ bookkeeping), the layout record and the search caches. */
export async function dataKeys(redis: RedisClient, prefix: string): Promise<string[]> {
  const found: string[] = []
  const notData = (k: string) => k.startsWith(`${prefix}q:`) || k === `${prefix}layout` || /\}:tmp:/.test(k) || /\}:ix:[^:]+:(fc|log|logorigin):/.test(k)
  await scanKeys(redis, `${prefix}*`, async (keys) => { found.push(...keys.filter((k) => !notData(k))) })
  return found.sort()
}

/** A dump of every data key and its content, for byte-for-byte comparisons. */
export async function snapshotStore(redis: RedisClient, prefix: string): Promise<Map<string, string>> {
  const dump = new Map<string, string>()
  for (const key of await dataKeys(redis, prefix)) {
    const value = await redis.dumpBuffer(key)
    dump.set(key, value ? value.toString('base64') : '')
  }
  return dump
}

/** The connections of the local server on `port` (its `CLIENT LIST` lines), but the one asking. */
export async function otherClients(port: number): Promise<string[]> {
  const probe = new Redis(port, '127.0.0.1')
  try {
    return String(await probe.client('LIST')).trim().split('\n').filter((c) => !/ cmd=client\|list /.test(c))
  } finally {
    probe.disconnect()
  }
}

/** Deletes the keys under `prefix` matching `pattern` (corrupting an index on purpose); returns how many. */
export async function deleteKeys(redis: RedisClient, prefix: string, pattern: string): Promise<number> {
  let n = 0
  await scanKeys(redis, `${prefix}${pattern}`, async (keys) => {
    for (const key of keys) n += await redis.del(key)
  })
  return n
}
