/**
 * Native indexes of earlier formats brought to this one in place at start-up: format 3 (a posting per urn id, no
 * `ids:` lists: model/search/native/idsUpgrade.ts), whose values are found by their id again without a rebuild, and
 * format 4 (autocomplete entries in Redis: model/search/native/suggestionsUpgrade.ts), whose entries are dropped,
 * and formats 5 and 6 (postings and lexicons of names, then of descriptions: model/search/native/pairsUpgrade.ts),
 * which are dropped too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService } from '../../helpers/service.ts'
import { deleteKeys } from '../../helpers/store.ts'

/** The native index's format now (model/search/native/engine.ts NATIVE_INDEX_FORMAT). */
const FORMAT = '7'

/** Writes a dataset's datasetProperties with `name` (its displayName; its name is its key's), and a description. */
const nameDataset = (svc: TestService, urn: string, name: string, description?: string) => svc.call('POST', '/aspects?action=ingestProposal', { proposal: {
  entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProperties',
  aspect: { contentType: 'application/json', value: JSON.stringify({ name, description }) },
} })

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
    assert.is(await redis.hget(keys.layout(), 'nativeIndex'), FORMAT)
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
    assert.is((await nameDataset(svc, urn, 'Sales Upgrade Orders')).status, 200)
    const { redis, keys, engine } = svc.gateway.model
    // What a format-4 index has beside this one's: a sorted set of suggestion entries per type and shard.
    const ac = keys.nativeIndex(keys.shardOf(urn), 'dataset', 'ac')
    await redis.zadd(ac, 0, `sales upgrade orders\u0000Sales Upgrade Orders\u0000${urn}`)
    await redis.hset(keys.layout(), 'nativeIndex', '4')
    await engine.ensureIndexes()
    assert.is(await redis.hget(keys.layout(), 'nativeIndex'), FORMAT)
    assert.is(await redis.exists(ac), 0)
    const suggestions = async (query: string) => (await svc.call('POST', '/entities?action=autocomplete', { query, entity: 'dataset', limit: 10 })).body.value.suggestions
    assert.equal(await suggestions('upgrade or'), ['Sales Upgrade Orders'])
    assert.equal(await suggestions('salesupgrade.o'), ['SalesUpgrade.Orders'])
  } finally {
    await svc.close()
  }
})

for (const format of ['5', '6']) {
  test(`a format-${format} index loses the postings, bitmaps and lexicons of its names, descriptions and browse paths, and conditions on them still find them`, async () => {
    const svc = await startService({ searchEngine: 'native' })
    try {
      const urn = `urn:svc:dataset:(urn:svc:dataPlatform:hive,PairsUpgrade${format}.Orders,PROD)`
      assert.is((await nameDataset(svc, urn, 'Pairs Upgrade Orders', 'Every Order of the upgrade')).status, 200)
      const { redis, keys, engine } = svc.gateway.model
      // What a format-5 index has beside this one's, for each paired field's value (a format-6 one for a
      // description's or a browse path's): a posting, its bitmap once large, and the value in the field's lexicon;
      // none of it is written any more.
      const ix = (kind: string, rest = '') => keys.nativeIndex(keys.shardOf(urn), 'dataset', kind, rest)
      const leftovers: string[] = []
      for (const [field, value] of [['name', `pairsupgrade${format}.orders`], ['displayName', 'pairs upgrade orders'], ['description', 'every order of the upgrade'], ['browsePaths', '/prod/hive/x']]) {
        assert.is(await redis.exists(ix('kw', `${field}\u0000${value}`), ix('vals', field)), 0, `${field} has no posting or lexicon`)
        await redis.sadd(ix('kw', `${field}\u0000${value}`), urn)
        await redis.setbit(ix('bm', `kw:${field}\u0000${value}`), 1, 1)
        await redis.zadd(ix('vals', field), 0, value)
        leftovers.push(ix('kw', `${field}\u0000${value}`), ix('bm', `kw:${field}\u0000${value}`), ix('vals', field))
      }
      await redis.hset(keys.layout(), 'nativeIndex', format)
      await engine.ensureIndexes()
      assert.is(await redis.hget(keys.layout(), 'nativeIndex'), FORMAT)
      assert.is(await redis.exists(...leftovers), 0)
      // The dataset's name is its key's, its displayName its properties' name.
      const found = async (field: string, condition: string, value: string) => (await svc.call('POST', '/entities?action=search', { input: '*', entity: 'dataset', start: 0, count: 10,
        filter: { or: [{ and: [{ field, value, condition }] }] } })).body.value.entities
      assert.equal(await found('name', 'EQUAL', `pairsupgrade${format}.ORDERS`), [urn])
      assert.equal(await found('name', 'START_WITH', 'pairsupgrade'), [urn])
      assert.equal(await found('name', 'EQUAL', 'pairsupgrade'), [])
      assert.equal(await found('displayName', 'EQUAL', 'Pairs Upgrade Orders'), [urn])
      assert.equal(await found('description', 'EQUAL', 'every ORDER of the upgrade'), [urn])
      assert.equal(await found('description', 'CONTAIN', 'order of'), [urn])
      assert.equal(await found('description', 'END_WITH', 'the upgrade'), [urn])
      assert.equal(await found('description', 'EQUAL', 'every order'), [])
      assert.equal(await found('browsePaths', 'START_WITH', '/prod/hive'), [urn])
      assert.equal(await found('browsePaths', 'CONTAIN', `pairsupgrade${format}`), [urn])
    } finally {
      await svc.close()
    }
  })
}

test.run()
