/**
 * Pages of `*` with filters are in urn order (code units, as Redis sorts), whatever path answers them, and a page
 * past the last match is empty: found by a differential run of both engines on one server and on a cluster (stop
 * 62), where the native engine's page of an OR of conditions on names and facet values came out of order (one
 * server) or skipped hits (a cluster), the redisearch engine's over most of its index put first the matches the
 * module scored higher, and its page from 1,000,000 listed every match (or was a 500).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, searchEngines, type TestService } from '../../helpers/service.ts'

const engines = searchEngines('urn order of filtered pages')
const USERS = ['User0', 'User111', 'User148', 'User185', 'User222', 'User74', 'bad.boyjones', 'bad.girlriri', 'harshal', 'jane', 'Émile', 'zed']
// Engineers enough that their title's posting is a sorted set (64 members on, apply.lua KLINK) beside plain sets.
const ENGINEERS = Array.from({ length: 70 }, (_, i) => `eng${String(i).padStart(2, '0')}`)
const TITLES = ['Analyst', 'Engineer', 'analyst', 'Manager']
const user = (u: string) => `urn:svc:corpuser:${u}`
const info = (u: string, i: number) => ({ active: true, displayName: `Ann ${u}`, email: `${u.toLowerCase()}@example.com`, fullName: `Full ${u.toUpperCase()}`, title: TITLES[i % TITLES.length] })
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

for (const { name, overrides } of engines) {
  const t = suite<{ svc: TestService }>(`urn order of filtered pages [${name}]`)
  t.before(async (ctx) => {
    ctx.svc = await startService(overrides)
    for (const [i, u] of USERS.entries()) {
      const res = await ctx.svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'corpuser', entityUrn: user(u), changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify(info(u, i)), contentType: 'application/json' } } })
      assert.is(res.status, 200, u)
    }
    const proposals = ENGINEERS.map((u) => ({ entityType: 'corpuser', entityUrn: user(u), changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ ...info(u, 1), title: 'Engineer' }), contentType: 'application/json' } }))
    assert.is((await ctx.svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals })).status, 200)
  })
  t.after(async (ctx) => { await ctx.svc.close() })

  const search = (svc: TestService, filter: unknown, start = 0, count = 4) =>
    svc.call('POST', '/entities?action=search', { input: '*', entity: 'corpuser', start, count, filter })
  /** Every page of `filter`, 4 at a time, and the whole answer at once: each in urn order, the same urns. */
  async function checkPages(svc: TestService, filter: unknown) {
    const whole = await search(svc, filter, 0, 100)
    assert.is(whole.status, 200, JSON.stringify(whole.body))
    const all: string[] = whole.body.value.entities
    assert.equal(all, [...all].sort(byCodeUnits), `whole answer in urn order: ${JSON.stringify(filter)}`)
    const paged: string[] = []
    for (let start = 0; start < all.length; start += 4) paged.push(...(await search(svc, filter, start, 4)).body.value.entities)
    assert.equal(paged, all, `pages of 4 = the whole answer: ${JSON.stringify(filter)}`)
    return all
  }

  t('an OR of a name range and a facet value', async ({ svc }) => {
    const all = await checkPages(svc, { or: [{ and: [{ field: 'title', value: 'Analyst' }] }, { and: [{ field: 'ldap', condition: 'LESS_THAN', value: 'user0' }] }] })
    assert.ok(all.includes(user('User0')) && all.includes(user('harshal')), JSON.stringify(all))
  })
  t('an OR of two name ranges', async ({ svc }) => {
    const all = await checkPages(svc, { or: [{ and: [{ field: 'ldap', condition: 'LESS_THAN', value: 'user0' }] }, { and: [{ field: 'email', condition: 'GREATER_THAN_OR_EQUAL_TO', value: 'm' }] }] })
    assert.is(all.length, USERS.length + ENGINEERS.length)
  })
  t('one name range, a list of facet values', async ({ svc }) => {
    await checkPages(svc, { and: [{ field: 'ldap', condition: 'GREATER_THAN_OR_EQUAL_TO', value: 'h' }] })
    await checkPages(svc, { and: [{ field: 'title', values: ['analyst', 'Manager'] }] })
    // A large posting (a sorted set) and small ones (plain sets) in one union.
    const listed = await checkPages(svc, { and: [{ field: 'title', values: ['Engineer', 'Manager'] }] })
    assert.ok(listed.length > ENGINEERS.length, String(listed.length))
    await checkPages(svc, { or: [{ and: [{ field: 'title', value: 'Manager' }] }, { and: [{ field: 'title', value: 'engineer' }] }] })
    // Most of the index, some meeting a group of two criteria (which the redisearch module scores higher): still
    // urn order alone.
    const from = { field: 'ldap', condition: 'GREATER_THAN_OR_EQUAL_TO', value: 'a' }
    const most = await checkPages(svc, { or: [{ and: [from] }, { and: [{ field: 'title', value: 'Manager' }, from] }] })
    assert.is(most.length, USERS.length + ENGINEERS.length)
    await checkPages(svc, { or: [{ and: [{ field: 'title', value: 'Engineer' }] }, { and: [{ field: 'ldap', condition: 'START_WITH', value: 'user1' }] }] })
  })
  t('a page past the last match is empty, however deep (a window larger than any remembered)', async ({ svc }) => {
    for (const [input, filter] of [['*', undefined], ['ann', undefined], ['*', { and: [{ field: 'title', value: 'Engineer' }] }]] as const) {
      for (const [start, count] of [[1_000_000, 1000], [15_000, 10_000]]) {
        const res = await svc.call('POST', '/entities?action=search', { input, entity: 'corpuser', start, count, filter })
        assert.is(res.status, 200, `${input} ${JSON.stringify(filter)} from ${start}: ${JSON.stringify(res.body)}`)
        assert.equal(res.body.value.entities, [], `${input} ${JSON.stringify(filter)} from ${start}`)
        assert.ok(res.body.value.numEntities > 0)
      }
    }
  })
  t.run()
}
