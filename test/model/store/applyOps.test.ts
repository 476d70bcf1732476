/**
 * The apply script (model/store/scripts/apply.lua) runs each op with its own arguments only: it decodes every op
 * into one table in turn, so an op with fewer arguments than the one before it must not see that op's leftovers.
 * Against the standalone pass's Redis (the cluster pass applies through the service's own suites).
 */
import { randomUUID } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { EntityStore } from '../../../model/store/entityStore.ts'
import { Keys } from '../../../model/store/keys.ts'
import { connectForRequests, type RedisClient } from '../../../model/store/redis.ts'
import { testRedisTarget } from '../../helpers/service.ts'

const t = suite<{ redis: RedisClient; keys: Keys; store: EntityStore }>('store: apply script ops')

t.before((ctx) => {
  const target = testRedisTarget()
  ctx.redis = connectForRequests(target, 'test-apply-ops')
  ctx.keys = new Keys(`test:${randomUUID()}:`, target.shards)
  ctx.store = new EntityStore(ctx.redis, ctx.keys)
})
t.after(async ({ redis }) => { await redis.quit() })

t('a short op after a long one runs with its own arguments', async ({ redis, keys, store }) => {
  const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,apply.ops,PROD)'
  // Keys of the entity's shard (its hash tag: one slot on a cluster).
  const [hash, set, gone, kept] = ['hash', 'set', 'gone', 'kept'].map((name) => `${keys.shardPrefix(keys.shardOf(urn))}test:${name}`) as [string, string, string, string]
  await redis.hset(kept, 'f', '1')
  await redis.hset(gone, 'f', '1')
  const outcome = await store.apply(urn, 0, `job-${randomUUID()}#1`, [
    // A field named as the key `kept`: were DEL to read past its own argument, it would delete `kept` too.
    ['HSET', hash, kept, '1', 'b', '2', 'c', '3'],
    ['DEL', gone],
    ['SADD', set, 'x', 'y', 'z', 'w'],
    ['SREM', set, 'x'],
  ])
  assert.is(outcome, 'applied')
  assert.equal(await redis.hgetall(hash), { [kept]: '1', b: '2', c: '3' })
  assert.is(await redis.exists(gone), 0, 'DEL deleted its one key')
  assert.is(await redis.exists(kept), 1, 'and no key of an op before it')
  assert.equal((await redis.smembers(set)).sort(), ['w', 'y', 'z'], 'SREM removed its one member')
  await redis.del(hash, set, kept, keys.meta(urn))
})

t('every value reaches Redis as the bytes a command argument would carry, whatever characters it holds', async ({ redis, keys, store }) => {
  const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,apply.bytes,PROD)'
  const [viaApply, direct] = ['via', 'direct'].map((name) => `${keys.shardPrefix(keys.shardOf(urn))}test:${name}`) as [string, string]
  const values = [
    'u\u0000aspect', '"quoted" \\ back\\slash \\ud800', 'tab\tnew\nline', 'Ñandú 数据 🚀', '', '12', 'lone \ud800 high', 'lone \udfff low', '\u007f\u0001',
  ]
  const fields = values.flatMap((v, i) => [`f${i}`, v])
  assert.is(await store.apply(urn, 0, `job-${randomUUID()}#1`, [['HSET', viaApply, ...fields], ['ZADD', viaApply + 'z', '0', values[0]!]]), 'applied')
  await redis.hset(direct, ...fields)
  const [got, want] = await Promise.all([redis.hgetallBuffer(viaApply), redis.hgetallBuffer(direct)])
  assert.equal(got, want)
  assert.equal(await redis.zrange(viaApply + 'z', 0, -1), ['u\u0000aspect'])
  await redis.del(viaApply, viaApply + 'z', direct, keys.meta(urn))
})

t.run()
