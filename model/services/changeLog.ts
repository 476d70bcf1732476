/**
 * Reading the MetadataChangeLog: one Redis stream per shard, each in order per entity (an entity's changes all go
 * to its shard's stream, as upstream partitions its change-log topic by urn). A consumer reads every shard's
 * stream from its own position; `readChanges` does one round of that, for the CLI and for tests.
 */
import type { Keys } from '../store/keys.ts'
import type { RedisClient } from '../store/redis.ts'

export interface ChangeEntry {
  shard: number
  /** The entry's id in its shard's stream (`<ms>-<seq>`): where a consumer resumes. */
  id: string
  fields: Record<string, string>
}

/** Each shard's position: the last id read (`0` reads from the start, `$` only what comes next). */
export type Positions = Map<number, string>

const fieldsOf = (flat: string[]): Record<string, string> => {
  const out: Record<string, string> = {}
  for (let i = 0; i < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!
  return out
}

/** The ids' order across shards: by time, then sequence, then shard (ids of different shards are independent). */
export function compareEntries(a: ChangeEntry, b: ChangeEntry): number {
  const [am, as] = a.id.split('-').map(Number) as [number, number]
  const [bm, bs] = b.id.split('-').map(Number) as [number, number]
  return am - bm || as - bs || a.shard - b.shard
}

/** The last `count` entries of every shard, merged oldest first; also the positions after them. */
export async function lastChanges(redis: RedisClient, keys: Keys, count: number): Promise<{ entries: ChangeEntry[]; positions: Positions }> {
  const positions: Positions = new Map()
  const perShard = await Promise.all(keys.allShards().map(async (shard) => {
    const rows = await redis.xrevrange(keys.changeLog(shard), '+', '-', 'COUNT', count)
    positions.set(shard, rows[0]?.[0] ?? '0')
    return rows.map(([id, flat]) => ({ shard, id, fields: fieldsOf(flat) }))
  }))
  return { entries: perShard.flat().sort(compareEntries), positions }
}

/** The entries after each shard's position (at most `count` per shard), merged oldest first; positions advance. */
export async function readChanges(redis: RedisClient, keys: Keys, positions: Positions, count = 1000): Promise<ChangeEntry[]> {
  const perShard = await Promise.all(keys.allShards().map(async (shard) => {
    const after = positions.get(shard) ?? '0'
    const rows = await redis.xrange(keys.changeLog(shard), `(${after}`, '+', 'COUNT', count)
    if (rows.length > 0) positions.set(shard, rows[rows.length - 1]![0])
    return rows.map(([id, flat]) => ({ shard, id, fields: fieldsOf(flat) }))
  }))
  return perShard.flat().sort(compareEntries)
}
