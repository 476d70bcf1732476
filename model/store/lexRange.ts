/** Reading a score-0 sorted set in member order from a point (ZRANGEBYLEX bounds), for keyset paging. */
import type { RedisClient } from './redis.ts'

/** [from, to] arguments of ZRANGEBYLEX (ascending) or ZREVRANGEBYLEX (descending) strictly past `after`. */
export function lexBounds(after: string | undefined, descending: boolean): [string, string] {
  if (descending) return [after === undefined ? '+' : `(${after}`, '-']
  return [after === undefined ? '-' : `(${after}`, '+']
}

/** Up to `limit` members of `key` strictly after `after` (before it when descending), in member order. */
export async function lexRange(redis: RedisClient, key: string, after: string | undefined, limit: number, descending: boolean): Promise<string[]> {
  const [from, to] = lexBounds(after, descending)
  return descending ? redis.zrevrangebylex(key, from, to, 'LIMIT', 0, limit) : redis.zrangebylex(key, from, to, 'LIMIT', 0, limit)
}
