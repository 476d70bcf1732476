/**
 * Shards, pure: the data is cut into S shards (fixed per deployment). An entity's shard follows from its urn, and
 * every key derived from the entity carries the shard's hash tag, so that on a Redis Cluster all of them share one
 * slot and one entity's whole change is one script. Tags are chosen so that shard i's slot lies in the i-th of S
 * equal slot ranges: a cluster that spreads its slots evenly over its masters then spreads the shards evenly too.
 */
import calculateSlot from 'cluster-key-slot'
import { fnv1a } from '../fnv1a.ts'

/** Slots of a Redis Cluster. */
export const SLOTS = 16384

/** The shard of a urn among `shards`. */
export function shardOf(urn: string, shards: number): number {
  return fnv1a(urn) % shards
}

/** The cluster slot of a key (the CRC16 of its hash tag, or of the whole key without one). */
export function slotOf(key: string): number {
  return calculateSlot(key)
}

/** The hash tags of `shards` shards: `s<i>` or `s<i>.<n>`, the first whose slot falls in shard i's slot range. */
export function shardTags(shards: number): string[] {
  return Array.from({ length: shards }, (_, i) => {
    const low = Math.floor((i * SLOTS) / shards)
    const high = Math.floor(((i + 1) * SLOTS) / shards)
    for (let n = 0; ; n++) {
      const tag = n === 0 ? `s${i}` : `s${i}.${n}`
      const slot = calculateSlot(tag)
      if (slot >= low && slot < high) return tag
    }
  })
}

/** The hash tag of a key (the text between its first `{` and the next `}`), or undefined. */
export function hashTagOf(key: string): string | undefined {
  const open = key.indexOf('{')
  if (open < 0) return undefined
  const close = key.indexOf('}', open + 1)
  return close > open + 1 ? key.slice(open + 1, close) : undefined
}
