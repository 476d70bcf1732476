/** Looking at what a test's key prefix holds in Redis (to prove that nothing was written). */
import type { Redis } from 'ioredis'

/** Every key under `prefix` except the write queues' own (BullMQ bookkeeping) and the search caches. */
export async function dataKeys(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = []
  let cursor = '0'
  const notData = (k: string) => k.startsWith(`${prefix}q:`) || k.startsWith(`${prefix}tmp:`) || /^[^{]*:ix:[^:]+:fc:/.test(k)
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
    cursor = next
    found.push(...keys.filter((k) => !notData(k)))
  } while (cursor !== '0')
  return found.sort()
}

/** A dump of every data key and its content, for byte-for-byte comparisons. */
export async function snapshotStore(redis: Redis, prefix: string): Promise<Map<string, string>> {
  const dump = new Map<string, string>()
  for (const key of await dataKeys(redis, prefix)) {
    const value = await redis.dumpBuffer(key)
    dump.set(key, value ? value.toString('base64') : '')
  }
  return dump
}

/** Deletes the keys under `prefix` matching `pattern` (corrupting an index on purpose); returns how many. */
export async function deleteKeys(redis: Redis, prefix: string, pattern: string): Promise<number> {
  let n = 0
  for await (const keys of redis.scanStream({ match: `${prefix}${pattern}`, count: 1000 }) as AsyncIterable<string[]>) {
    if (keys.length) n += await redis.del(...keys)
  }
  return n
}
