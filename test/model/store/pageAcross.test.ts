/**
 * Pages across shards' ordered sets (model/store/gather.ts pageAcross, over sorted sets: orderedSets.ts), on the
 * pass's real Redis: every page equals the slice of all members in order, whether they spread evenly over the
 * shards or not, shallow or deep, and on one shard (read by rank); and the merge of ordered lists it cuts pages from.
 */
import { randomUUID } from 'node:crypto'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEEP_PAGE, mergeOrdered, pageAcross, shareOf, type OrderedSet } from '../../../model/store/gather.ts'
import { sortedSetOf } from '../../../model/store/orderedSets.ts'
import { connectForRequests } from '../../../model/store/redis.ts'
import { testRedisTarget } from '../../helpers/service.ts'

const redis = connectForRequests(testRedisTarget())
const prefix = `test:${randomUUID()}:`
const keysOf = (n: number, name: string) => Array.from({ length: n }, (_, k) => `${prefix}{s${k}}:${name}`)
const setsOf = (keys: string[]): OrderedSet[] => keys.map((key) => sortedSetOf((args) => redis.call(args[0]!, ...args.slice(1)), key))

const urnsOf = (n: number) => Array.from({ length: n }, (_, i) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,db.t_${String((i * 7919) % 100_000).padStart(5, '0')},PROD)`)

test('mergeOrdered: ordered lists merged into one ordered, distinct list, cut at its limit', () => {
  const lists = [['a', 'd', 'g'], [], ['b', 'c', 'h', 'i'], ['d', 'e']]
  assert.equal(mergeOrdered(lists), ['a', 'b', 'c', 'd', 'e', 'g', 'h', 'i'])
  assert.equal(mergeOrdered(lists, 5), ['a', 'b', 'c', 'd', 'e'])
  assert.equal(mergeOrdered(lists, 0), [])
  assert.equal(mergeOrdered([]), [])
  const urns = urnsOf(300)
  const spread = [0, 1, 2].map((k) => urns.filter((_, i) => i % 3 === k).sort())
  assert.equal(mergeOrdered(spread, 120), [...urns].sort().slice(0, 120))
})

test('pages equal the slice of all members in order: spread evenly, skewed, one shard empty, one shard', async () => {
  const urns = urnsOf(600)
  const sorted = [...urns].sort()
  const layouts: [string, number, (i: number) => number][] = [
    ['even', 5, (i) => (i * 31) % 5],
    ['skewed', 5, (i) => (i % 10 === 0 ? 1 : i % 3 === 0 ? 2 : 0)],
    ['one_shard_empty', 5, (i) => 1 + (i % 4)],
    ['one_shard', 1, () => 0],
  ]
  for (const [name, shards, shardOf] of layouts) {
    const keys = keysOf(shards, name)
    await Promise.all(urns.map((urn, i) => redis.zadd(keys[shardOf(i)]!, 0, urn)))
    for (const [start, count] of [[0, 10], [1, 1], [57, 10], [DEEP_PAGE, 7], [299, 3], [590, 20], [599, 1], [600, 10], [0, 600], [250, 0]] as const) {
      const page = await pageAcross(setsOf(keys), start, count)
      assert.equal(page.members, sorted.slice(start, start + count), `${name}: from ${start}, ${count}`)
      assert.equal(page.total, 600, `${name}: the total`)
    }
  }
})

test('deep pages of many sets, whose pivot is refined: the slice of all members in order', async () => {
  const urns = urnsOf(4000)
  const sorted = [...urns].sort()
  const keys = keysOf(16, 'many')
  await Promise.all(urns.map((urn, i) => redis.zadd(keys[(i * 7919) % 16]!, 0, urn)))
  for (const start of [150, 999, 2345, 3990, 3999]) {
    const page = await pageAcross(setsOf(keys), start, 10)
    assert.equal(page.members, sorted.slice(start, start + 10), `from ${start}`)
  }
  for (const key of keys) await redis.del(key)
})

/** Sets that count the members they send. */
function counted(keys: string[]): { sets: OrderedSet[]; sent: () => number } {
  let sent = 0
  const sets = setsOf(keys).map((set): OrderedSet => ({ ...set, from: async (member, limit) => { const got = await set.from(member, limit); sent += got.length; return got } }))
  return { sets, sent: () => sent }
}

test('shareOf: a set sends about its share of what is wanted, never more than all of it', () => {
  assert.equal(shareOf(10, 1), 10)
  assert.equal(shareOf(1, 16), 1)
  assert.equal(shareOf(260, 16), Math.ceil(260 / 16 + 4 * Math.sqrt(260 / 16) + 2))
  assert.ok(shareOf(5000, 16) < 5000 / 16 * 1.3)
})

test('each set sends its share of a page, and only a set that may hold more before the cut is read again', async () => {
  const urns = urnsOf(4000)
  const sorted = [...urns].sort()
  const even = keysOf(16, 'share_even')
  await Promise.all(urns.map((urn, i) => redis.zadd(even[(i * 7919) % 16]!, 0, urn)))
  for (const [start, count] of [[0, 10], [40, 20], [150, 10], [2345, 10], [3990, 10]] as const) {
    const { sets, sent } = counted(even)
    const page = await pageAcross(sets, start, count)
    assert.equal(page.members, sorted.slice(start, start + count), `even, from ${start}`)
    // Before, every set sent all that was wanted from the pivot (16 times it); now about one share each.
    assert.ok(sent() < 16 * shareOf(start < DEEP_PAGE ? start + count : 400, 16) + 16 * 20, `even, from ${start}: ${sent()} sent`)
  }
  // Nearly every member in one set: its share is far too few, so it is read again, and every page is still exact.
  const skewed = keysOf(16, 'share_skewed')
  await Promise.all(urns.map((urn, i) => redis.zadd(skewed[i % 50 === 0 ? 1 + (i % 15) : 0]!, 0, urn)))
  for (const [start, count] of [[0, 10], [0, 90], [57, 30], [DEEP_PAGE, 10], [1500, 25], [3990, 10], [3999, 5]] as const) {
    const page = await pageAcross(setsOf(skewed), start, count)
    assert.equal(page.members, sorted.slice(start, start + count), `skewed, from ${start}`)
    assert.equal(page.total, 4000)
  }
  for (const key of [...even, ...skewed]) await redis.del(key)
})

test.after(async () => {
  for (const [name, shards] of [['even', 5], ['skewed', 5], ['one_shard_empty', 5], ['one_shard', 1]] as const) {
    for (const key of keysOf(shards, name)) await redis.del(key)
  }
  redis.disconnect()
})

test.run()
