/**
 * Deep match-all pages across shard indexes (model/search/redisearch/matchAllPage.ts), on the pass's real Redis
 * (the companions' urn lists only: no search module needed): every page equals the slice of all urns in order,
 * whether urns spread evenly over the shards or not.
 */
import { randomUUID } from 'node:crypto'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FtConnection } from '../../../model/search/redisearch/connection.ts'
import { liveKey } from '../../../model/search/redisearch/companions.ts'
import { matchAllPage, type ShardIndex } from '../../../model/search/redisearch/matchAllPage.ts'
import { testRedisTarget } from '../../helpers/service.ts'

const conn = new FtConnection(testRedisTarget())
const prefix = `test:${randomUUID()}:`
const shardIndexes = (n: number, name: string): ShardIndex[] => Array.from({ length: n }, (_, k) => {
  const index = `${prefix}{s${k}}:idx:${name}`
  return { index, client: { sendCommand: (args: string[]) => conn.raw(index, args, false) } }
})

async function fill(shards: ShardIndex[], urns: string[], shardOf: (i: number) => number): Promise<void> {
  await Promise.all(urns.map((urn, i) => shards[shardOf(i)]!.client.sendCommand(['ZADD', liveKey(shards[shardOf(i)]!.index), '0', urn])))
}

const urnsOf = (n: number) => Array.from({ length: n }, (_, i) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,db.t_${String((i * 7919) % 100_000).padStart(5, '0')},PROD)`)

test('pages equal the slice of all urns in order: spread evenly, skewed, one shard empty', async () => {
  const urns = urnsOf(600)
  const sorted = [...urns].sort()
  const layouts: [string, (i: number) => number][] = [
    ['even', (i) => (i * 31) % 5],
    ['skewed', (i) => (i % 10 === 0 ? 1 : i % 3 === 0 ? 2 : 0)],
    ['one shard empty', (i) => 1 + (i % 4)],
  ]
  for (const [name, shardOf] of layouts) {
    const shards = shardIndexes(5, name.replaceAll(' ', '_'))
    await fill(shards, urns, shardOf)
    for (const [start, count] of [[0, 10], [1, 1], [57, 10], [299, 3], [590, 20], [599, 1], [600, 10], [0, 600], [250, 0]] as const) {
      assert.equal(await matchAllPage(shards, start, count), sorted.slice(start, start + count), `${name}: from ${start}, ${count}`)
    }
  }
})

test.after(async () => {
  for (const name of ['even', 'skewed', 'one_shard_empty']) {
    for (const s of shardIndexes(5, name)) await s.client.sendCommand(['DEL', liveKey(s.index)])
  }
  await conn.close()
})

test.run()
