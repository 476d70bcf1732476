/**
 * Native indexes of earlier formats brought to this one in place at start-up: format 3 (a posting per urn id, no
 * `ids:` lists: model/search/native/idsUpgrade.ts), whose values are found by their id again without a rebuild, and
 * format 4 (autocomplete entries in Redis: model/search/native/suggestionsUpgrade.ts), whose entries are dropped.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startService } from '../../helpers/service.ts'
import { deleteKeys } from '../../helpers/store.ts'

test('a format-3 index gets its ids lists from the lexicons, and a value is found by its id again', async () => {
  const svc = await startService({ searchEngine: 'native' })
  try {
    const user = (u: string) => `urn:svc:corpuser:upgrade_${u}`
    const member = (u: string, ...groups: string[]) => svc.call('POST', '/aspects?action=ingestProposal', { proposal: {
      entityType: 'corpuser', entityUrn: user(u), changeType: 'UPSERT', aspectName: 'groupMembership',
      aspect: { contentType: 'application/json', value: JSON.stringify({ groups: groups.map((g) => `urn:svc:corpGroup:${g}`) }) },
    } })
    for (const [u, g] of [['a', 'Data-Eng'], ['b', 'Data-Eng'], ['c', 'ops']] as const) assert.is((await member(u, g)).status, 200)
    // Found by the script: the filter holds a condition on the urn, which no copy answers.
    const byId = async () => (await svc.call('POST', '/entities?action=search', { input: '*', entity: 'corpuser', start: 0, count: 10, filter: { or: [{ and: [
      { field: 'groups', value: 'data-eng', condition: 'EQUAL' }, { field: 'urn', value: 'urn:svc:corpuser:upgrade_', condition: 'START_WITH' }] }] } })).body.value.entities.sort()
    assert.equal(await byId(), [user('a'), user('b')])
    const { redis, keys, engine } = svc.gateway.model
    // What a format-3 index lacks.
    assert.ok(await deleteKeys(redis, keys.prefix, '{*}:ix:*:ids:*') > 0)
    await redis.hset(keys.layout(), 'nativeIndex', '3')
    assert.equal(await byId(), [])
    await engine.ensureIndexes()
    assert.is(await redis.hget(keys.layout(), 'nativeIndex'), '5')
    assert.equal(await byId(), [user('a'), user('b')])
    // Kept by the writes from then on.
    assert.is((await member('c', 'Data-Eng')).status, 200)
    assert.equal(await byId(), [user('a'), user('b'), user('c')])
  } finally {
    await svc.close()
  }
})

test('a format-4 index loses its autocomplete entries, and autocomplete reads the copies of the names', async () => {
  const svc = await startService({ searchEngine: 'native' })
  try {
    const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,SalesUpgrade.Orders,PROD)'
    assert.is((await svc.call('POST', '/aspects?action=ingestProposal', { proposal: {
      entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProperties',
      aspect: { contentType: 'application/json', value: JSON.stringify({ name: 'Sales Upgrade Orders' }) },
    } })).status, 200)
    const { redis, keys, engine } = svc.gateway.model
    // What a format-4 index has beside this one's: a sorted set of suggestion entries per type and shard.
    const ac = keys.nativeIndex(keys.shardOf(urn), 'dataset', 'ac')
    await redis.zadd(ac, 0, `sales upgrade orders\u0000Sales Upgrade Orders\u0000${urn}`)
    await redis.hset(keys.layout(), 'nativeIndex', '4')
    await engine.ensureIndexes()
    assert.is(await redis.hget(keys.layout(), 'nativeIndex'), '5')
    assert.is(await redis.exists(ac), 0)
    const suggestions = async (query: string) => (await svc.call('POST', '/entities?action=autocomplete', { query, entity: 'dataset', limit: 10 })).body.value.suggestions
    assert.equal(await suggestions('upgrade or'), ['Sales Upgrade Orders'])
    assert.equal(await suggestions('salesupgrade.o'), ['SalesUpgrade.Orders'])
  } finally {
    await svc.close()
  }
})

test.run()
