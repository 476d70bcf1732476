/**
 * A native index of format 3 (a posting per urn id, no `ids:` lists) brought to format 4 in place at start-up
 * (model/search/native/idsUpgrade.ts): values are found by their id again without a rebuild.
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
    assert.is(await redis.hget(keys.layout(), 'nativeIndex'), '4')
    assert.equal(await byId(), [user('a'), user('b')])
    // Kept by the writes from then on.
    assert.is((await member('c', 'Data-Eng')).status, 200)
    assert.equal(await byId(), [user('a'), user('b'), user('c')])
  } finally {
    await svc.close()
  }
})

test.run()
