/**
 * After a slot move, a shard's index that the module left short of documents is completed by writing the shard's
 * documents again (model/search/redisearch/placement.ts, reindex.lua), on the pass's Redis with the search module
 * (skipped without one): an index created with SKIPINITIALSCAN (indexing none of the documents already there)
 * holds every document afterwards, and a urn whose document is gone is not brought back.
 */
import { randomUUID } from 'node:crypto'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { reindexDocuments } from '../../../model/search/redisearch/placement.ts'
import { liveKey } from '../../../model/search/redisearch/companions.ts'
import { connectForRequests } from '../../../model/store/redis.ts'
import { testSearchTarget } from '../../helpers/service.ts'

const target = testSearchTarget()
if (!target) {
  test.skip('SKIPPED: no Redis with the search module', () => {})
  console.log('redisearch re-indexing: SKIPPED, no Redis with the search module was found')
} else {
  test('a moved index lacking documents is completed, in pages, without recreating deleted documents', async () => {
    const redis = connectForRequests(target, 'reindex-test')
    const tag = `test:${randomUUID()}:{r1}:`
    const index = `${tag}idx:dataset`
    const prefix = `${tag}doc:dataset:`
    const urns = Array.from({ length: 123 }, (_, i) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,t${i},PROD)`)
    try {
      for (const urn of urns) await redis.hset(prefix + urn, 'urn', urn, 'name', `t${urns.indexOf(urn)}`)
      await redis.zadd(liveKey(index), ...urns.flatMap((u) => ['0', u]))
      // A urn still listed whose document is gone (a delete racing the re-index).
      const gone = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,gone,PROD)'
      await redis.zadd(liveKey(index), '0', gone)
      const create = ['FT.CREATE', index, 'ON', 'HASH', 'PREFIX', '1', prefix, 'SCHEMA', 'urn', 'TAG', 'name', 'TEXT']
      await redis.call(create[0]!, ...create.slice(1, 7), 'SKIPINITIALSCAN', ...create.slice(7))
      const docs = async () => {
        const info = (await redis.call('FT.INFO', index)) as unknown[]
        return Number(info[info.findIndex((v) => String(v) === 'num_docs') + 1])
      }
      assert.is(await docs(), 0, 'SKIPINITIALSCAN left the documents out, as a move can')
      await reindexDocuments(redis, { index, slot: 0, create })
      assert.is(await docs(), urns.length)
      assert.is(await redis.exists(prefix + gone), 0, 'a gone document is not recreated')
      const found = (await redis.call('FT.SEARCH', index, '@name:t77', 'NOCONTENT')) as unknown[]
      assert.equal(found, [1, prefix + urns[77]])
      await redis.call('FT.DROPINDEX', index, 'DD')
      await redis.del(liveKey(index))
    } finally {
      redis.disconnect()
    }
  })
  test.run()
}
