/** Sorted sets of score 0 (members in code-unit order) as the ordered sets a page across shards reads (gather.ts). */
import type { OrderedSet } from './gather.ts'

/** The commands an ordered set is read with, on whatever connection holds its key. */
export type SendCommand = (args: string[]) => Promise<unknown>

/** The sorted set `key` (every member scored 0), read through `send`. */
export function sortedSetOf(send: SendCommand, key: string): OrderedSet {
  return {
    size: async () => Number(await send(['ZCARD', key])),
    window: async (start, count) => (await send(['ZRANGE', key, String(start), String(start + count - 1)])) as string[],
    countBefore: async (member) => Number(await send(['ZLEXCOUNT', key, '-', `(${member}`])),
    from: async (member, limit) => (await send(['ZRANGEBYLEX', key, member === undefined ? '-' : `[${member}`, '+', 'LIMIT', '0', String(limit)])) as string[],
  }
}
