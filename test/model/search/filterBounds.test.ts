/**
 * The bound on the values one query may combine (MAX_FILTER_VALUES, here 160): a string condition or a word prefix
 * (the last word of the input is one) matching more distinct values answers 400 FILTER_TOO_BROAD naming the criterion
 * and writes nothing; within the bound it answers. On S shards each answers at most 1/S of the bound, so the work of
 * a query is bounded whatever the topology. On the native engine a name's condition that the gateway checks on its
 * own copies (alone, with facet values or with words: model/search/native/localFilter.ts) is not bounded: none of
 * its documents goes to Redis.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { onCluster, searchEngines, startService, type TestService } from '../../helpers/service.ts'

const bounds = suite<{ svc: TestService }>('native: filters too broad to answer')
const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const NAMES = Array.from({ length: 200 }, (_, i) => `orders_${String(i).padStart(3, '0')}_daily`)
/** A word of its own per dataset (letters only, so that it stays one token): `term` and two letters. */
const term = (i: number) => `term${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`
const search = (svc: TestService, body: Record<string, unknown>) => svc.call('POST', '/entities?action=search', { entity: 'dataset', start: 0, count: 100, ...body })
const filter = (field: string, condition: string, value: string) => ({ or: [{ and: [{ field, condition, value }] }] })

bounds.before(async (ctx) => {
  // The bound is each shard's: on 16 shards (~12 of the 200 names in each) a smaller one is passed alike.
  ctx.svc = await startService({ searchEngine: 'native', maxFilterValues: onCluster() ? 4 : 160 })
  const proposals = NAMES.map((name, i) => ({ entityType: 'dataset', entityUrn: ds(name), changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ description: `the ${term(i)} table` }), contentType: 'application/json' } }))
  const res = await ctx.svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals })
  assert.is(res.status, 200, JSON.stringify(res.body))
})
bounds.after(async (ctx) => { await ctx.svc.close() })

bounds('a word prefix over too many words, or a name\'s condition the script must combine, is 400 FILTER_TOO_BROAD naming the criterion', async ({ svc }) => {
  // A name's condition beside a criterion only the search script resolves (a range on the urn) goes to the script.
  const withUrn = (field: string, condition: string, value: string) => ({ or: [{ and: [{ field, condition, value }, { field: 'urn', condition: 'START_WITH', value: 'urn:' }] }] })
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ input: '*', filter: withUrn('name', 'GREATER_THAN', 'orders_') }, /name GREATER_THAN "orders_"/],
    [{ input: '*', filter: withUrn('name', 'START_WITH', 'orders_') }, /name START_WITH "orders_"/],
    [{ input: '*', filter: withUrn('name', 'CONTAIN', 'daily') }, /name CONTAIN "daily"/],
    [{ input: '*', filter: withUrn('name', 'END_WITH', '_daily') }, /name END_WITH "_daily"/],
    [{ input: 'term' }, /the word prefix "term"/],
  ]
  for (const [body, named] of cases) {
    const res = await search(svc, body)
    assert.is(res.status, 400, JSON.stringify(body))
    assert.is(res.body.code, 'FILTER_TOO_BROAD')
    assert.match(res.body.message, named, res.body.message)
    assert.match(res.body.message, /narrow it/)
    assert.ok(res.body.details?.some((d: { path: string }) => d.path === ('input' in body && body.input !== '*' ? 'input' : 'filter')), JSON.stringify(res.body))
  }
  const suggest = await svc.call('POST', '/entities?action=autocomplete', { query: 'ord', entity: 'dataset', limit: 5, filter: withUrn('name', 'START_WITH', 'orders_') })
  assert.is(suggest.status, 400)
  assert.is(suggest.body.code, 'FILTER_TOO_BROAD')
  // Alone, the same condition is checked on the copies, as a search's is.
  const answered = await svc.call('POST', '/entities?action=autocomplete', { query: 'ord', entity: 'dataset', limit: 5, filter: filter('name', 'START_WITH', 'orders_') })
  assert.is(answered.status, 200, JSON.stringify(answered.body))
  assert.is(answered.body.value.suggestions.length, 5)
})

bounds('a name\'s condition checked on the gateway\'s copies answers however many names it matches, alone, with facet values or with words', async ({ svc }) => {
  const all = NAMES.map(ds)
  const cases: [Record<string, unknown>, string[]][] = [
    [{ input: '*', filter: filter('name', 'GREATER_THAN', 'orders_') }, all],
    [{ input: '*', filter: filter('name', 'START_WITH', 'orders_') }, all],
    [{ input: '*', filter: filter('name', 'CONTAIN', 'daily') }, all],
    [{ input: '*', filter: filter('name', 'END_WITH', '_daily') }, all],
    [{ input: '*', filter: filter('name', 'LESS_THAN_OR_EQUAL_TO', 'orders_179_daily') }, all.slice(0, 180)],
    [{ input: '*', filter: { or: [{ and: [{ field: 'name', condition: 'CONTAIN', value: 'daily' }, { field: 'platform', condition: 'EQUAL', value: 'hive' }] }] } }, all],
    [{ input: '*', filter: { or: [{ and: [{ field: 'name', condition: 'CONTAIN', value: 'daily' }, { field: 'platform', condition: 'EQUAL', value: 'kafka' }] }] } }, []],
    [{ input: 'table', filter: filter('name', 'GREATER_THAN', 'orders_150') }, all.slice(150)],
    // Negated alone, or beside negated facet values: every document checked on the copies.
    [{ input: '*', filter: { or: [{ and: [{ field: 'name', condition: 'GREATER_THAN', value: 'orders_010_daily', negated: true }] }] } }, all.slice(0, 11)],
    [{ input: '*', filter: { or: [{ and: [{ field: 'name', condition: 'START_WITH', value: 'orders_0', negated: true }, { field: 'platform', condition: 'EQUAL', value: 'kafka', negated: true }] }] } }, all.slice(100)],
    [{ input: '*', filter: { or: [{ and: [{ field: 'name', condition: 'CONTAIN', value: 'daily', negated: true }] }] } }, []],
    [{ input: 'table', filter: { or: [{ and: [{ field: 'name', condition: 'START_WITH', value: 'orders_1', negated: true }, { field: 'name', condition: 'CONTAIN', value: 'daily' }] }] } }, [...all.slice(0, 100)]],
  ]
  for (const [body, expected] of cases) {
    const res = await search(svc, body)
    assert.is(res.status, 200, JSON.stringify([body, res.body]))
    assert.is(res.body.value.numEntities, expected.length, JSON.stringify(body))
    assert.equal(res.body.value.entities, expected.slice(0, 100), JSON.stringify(body))
    const platform = res.body.value.metadata.searchResultMetadatas.find((f: { name: string }) => f.name === 'platform')
    assert.equal(platform?.aggregations ?? {}, expected.length > 0 ? { hive: expected.length } : {}, JSON.stringify(body))
  }
  // The next page of a broad one, and a document that leaves is gone from the very next answer.
  const second = await search(svc, { input: '*', filter: filter('name', 'GREATER_THAN', 'orders_'), start: 100 })
  assert.equal(second.body.value.entities, all.slice(100))
  assert.is((await svc.call('POST', '/entities?action=delete', { urn: all[3] })).status, 200)
  const after = await search(svc, { input: '*', filter: filter('name', 'GREATER_THAN', 'orders_') })
  assert.is(after.body.value.numEntities, 199)
  assert.not.ok(after.body.value.entities.includes(all[3]))
  const back = { entityType: 'dataset', entityUrn: all[3], changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ description: `the ${term(3)} table` }), contentType: 'application/json' } }
  assert.is((await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals: [back] })).status, 200)
})

bounds('within the bound it answers', async ({ svc }) => {
  const narrow = await search(svc, { input: '*', filter: filter('name', 'START_WITH', 'orders_00') })
  assert.is(narrow.status, 200, JSON.stringify(narrow.body))
  assert.equal(narrow.body.value.entities, NAMES.slice(0, 10).map(ds))
  const contained = await search(svc, { input: '*', filter: filter('name', 'CONTAIN', '_01') })
  assert.is(contained.status, 200)
  assert.equal(contained.body.value.entities, NAMES.slice(10, 20).map(ds))
  const prefixed = await search(svc, { input: 'terma' })
  assert.is(prefixed.status, 200)
  assert.is(prefixed.body.value.numEntities, 26)
})

bounds.run()

// A range on a string field is bounded on the redisearch engine: it counts the values in the range in its lexicon of
// the field (a value leaves it with its last document) before it reads any. The native engine answers a name's range
// from its copy of the pairs, however many.
for (const { name, overrides } of searchEngines('filter bounds, ranges').filter((e) => e.name !== 'native, bitmaps')) {
  const ranges = suite<{ svc: TestService }>(`filter bounds, ranges [${name}]`)
  ranges.before(async (ctx) => {
    ctx.svc = await startService({ ...overrides, maxFilterValues: 160 })
    const res = await ctx.svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals: NAMES.map((n) => ({ entityType: 'dataset', entityUrn: ds(n), changeType: 'UPSERT', aspectName: 'status', aspect: { value: JSON.stringify({ removed: false }), contentType: 'application/json' } })) })
    assert.is(res.status, 200, JSON.stringify(res.body))
  })
  ranges.after(async (ctx) => { await ctx.svc.close() })

  ranges('a range over more values than the bound is 400 FILTER_TOO_BROAD (the native engine answers it from its copies); once values leave, it answers', async ({ svc }) => {
    const broad = await search(svc, { input: '*', filter: filter('name', 'GREATER_THAN', 'orders_') })
    // The bound is each shard's: on 16 shards each holds ~12 of the 200 names, within it.
    if (name === 'native' || onCluster()) {
      assert.is(broad.status, 200, JSON.stringify(broad.body))
      assert.is(broad.body.value.numEntities, NAMES.length)
    } else {
      assert.is(broad.status, 400, JSON.stringify(broad.body))
      assert.is(broad.body.code, 'FILTER_TOO_BROAD')
      assert.match(broad.body.message, /name GREATER_THAN "orders_" matches \d+ distinct values/)
    }
    const narrow = await search(svc, { input: '*', filter: filter('name', 'LESS_THAN', 'orders_010_daily') })
    assert.is(narrow.status, 200, JSON.stringify(narrow.body))
    assert.equal(narrow.body.value.entities, NAMES.slice(0, 10).map(ds))
    // One character, below the module's shortest wildcard: the redisearch engine reads its lexicon, under the same bound.
    const sevens = await search(svc, { input: '*', count: 200, filter: filter('name', 'CONTAIN', '7') })
    assert.is(sevens.status, 200, JSON.stringify(sevens.body))
    assert.equal(sevens.body.value.entities, NAMES.filter((n) => n.includes('7')).map(ds))
    const everyY = await search(svc, { input: '*', filter: filter('name', 'END_WITH', 'y') })
    if (name === 'native' || onCluster()) assert.is(everyY.body.value.numEntities, NAMES.length)
    else assert.is(everyY.body.code, 'FILTER_TOO_BROAD', JSON.stringify(everyY.body))
    // 190 datasets leave the catalogue: 10 names are left, within the bound.
    for (const n of NAMES.slice(0, 190)) assert.is((await svc.call('POST', '/entities?action=delete', { urn: ds(n) })).status, 200)
    const after = await search(svc, { input: '*', filter: filter('name', 'GREATER_THAN', 'orders_') })
    assert.is(after.status, 200, JSON.stringify(after.body))
    assert.equal(after.body.value.entities, NAMES.slice(190).map(ds))
    // A display name that changes moves in its lexicon: the old value no longer matches, the new one does.
    const rename = (to: string) => svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: ds(NAMES[190]!), changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ name: to }), contentType: 'application/json' } } })
    const shown = async (condition: string, value: string) => (await search(svc, { input: '*', filter: filter('displayName', condition, value) })).body.value.entities
    assert.is((await rename('zz renamed')).status, 200)
    assert.equal(await shown('GREATER_THAN_OR_EQUAL_TO', 'zz'), [ds(NAMES[190]!)])
    assert.is((await rename('aa renamed')).status, 200)
    assert.equal(await shown('GREATER_THAN_OR_EQUAL_TO', 'zz'), [])
    assert.equal(await shown('LESS_THAN', 'ab'), [ds(NAMES[190]!)])
  })
  ranges.run()
}
