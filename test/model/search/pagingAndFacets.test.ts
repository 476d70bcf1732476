/**
 * Stable pages and current facet counts, on both engines (`redisearch` when a Redis with the search module is
 * available: a standalone server or the pass's cluster; otherwise that run says it skipped): matches tying on relevance, paged one at
 * a time, come back each exactly once in (relevance, urn) order; a write acknowledged is counted by the very next
 * answer's facets, for match-all and for words.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { scanKeys } from '../../../model/store/redis.ts'
import { deleteKeys } from '../../helpers/store.ts'
import { startService, tokenFor, type TestService, searchEngines } from '../../helpers/service.ts'

const engines = searchEngines('paging and facets')

const ds = (name: string, platform: string) => `urn:svc:dataset:(urn:svc:dataPlatform:${platform},${name},PROD)`
const PLATFORMS = ['hive', 'kafka', 's3']
const propose = (svc: TestService, urn: string, aspectName: string, value: unknown) =>
  svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } } })
const search = async (svc: TestService, input: string, start: number, count: number) => {
  const res = await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start, count })
  assert.is(res.status, 200, JSON.stringify(res.body))
  return res.body.value
}
const facet = (value: any, name: string): Record<string, number> | undefined =>
  value.metadata.searchResultMetadatas.find((f: { name: string }) => f.name === name)?.aggregations

/** Pages of one through every match; asserts each comes once, in the order of one full page. */
async function pagedOneAtATime(svc: TestService, input: string, expected: number): Promise<string[]> {
  const full = await search(svc, input, 0, 100)
  assert.is(full.numEntities, expected, `${input}: total`)
  const paged: string[] = []
  for (let start = 0; start < expected; start++) {
    const page = await search(svc, input, start, 1)
    assert.is(page.numEntities, expected, `${input}: total on page ${start}`)
    paged.push(...page.entities)
  }
  assert.is(new Set(paged).size, expected, `${input}: every match exactly once (${paged.length} paged)`)
  assert.equal(paged, full.entities, `${input}: pages follow the order of one full page`)
  return paged
}

for (const { name, overrides } of engines) {
  const test = suite<{ svc: TestService; urns: string[] }>(`paging and facets [${name}]`)
  test.before(async (ctx) => {
    ctx.svc = await startService(overrides)
    // 12 datasets written out of urn order: 8 tie with "zebra" in the name only, 4 also have it in the description.
    const order = [7, 2, 11, 0, 9, 4, 1, 10, 5, 3, 8, 6]
    ctx.urns = []
    for (const i of order) {
      const urn = ds(`db.tie_${String(i).padStart(2, '0')}`, PLATFORMS[i % 3]!)
      ctx.urns.push(urn)
      const description = i % 3 === 0 ? 'zebra crossing' : 'plain table'
      assert.is((await propose(ctx.svc, urn, 'datasetProperties', { name: `zebra ${i}`, description })).status, 200)
    }
  })
  test.after(async (ctx) => { await ctx.svc.close() })

  test('ties on relevance, paged one at a time: every match once, relevance then urn', async ({ svc, urns }) => {
    const paged = await pagedOneAtATime(svc, 'zebra', 12)
    const higher = urns.filter((u) => /tie_(00|03|06|09)/.test(u)).sort()
    const lower = urns.filter((u) => !higher.includes(u)).sort()
    assert.equal(paged, [...higher, ...lower])
    // Without words every match ties: urn order alone.
    assert.equal(await pagedOneAtATime(svc, '*', 12), [...urns].sort())
    assert.equal(await pagedOneAtATime(svc, 'plain', 8), [...lower])
    // A word only a few match (the redisearch engine then sorts the tie group rather than walking the index).
    assert.equal(await pagedOneAtATime(svc, 'crossing', 4), [...higher])
  })

  test('pages of several across tie groups join into the full order', async ({ svc }) => {
    const full = (await search(svc, 'zebra', 0, 12)).entities as string[]
    for (const size of [2, 3, 5]) {
      const joined: string[] = []
      for (let start = 0; start < 12; start += size) joined.push(...(await search(svc, 'zebra', start, size)).entities)
      assert.equal(joined, full, `pages of ${size}`)
    }
  })

  test('facet counts are current right after a write, a soft delete and an undo', async ({ svc }) => {
    const before = await search(svc, '*', 0, 10)
    const word = await search(svc, 'zebra', 0, 10)
    assert.equal(facet(before, 'platform'), { hive: 4, kafka: 4, s3: 4 })
    assert.equal(facet(word, 'platform'), { hive: 4, kafka: 4, s3: 4 })
    // Most documents match (counted as the index's totals less the non-matches) / a few match (grouped directly).
    assert.equal(facet(await search(svc, 'plain', 0, 10), 'platform'), { kafka: 4, s3: 4 })
    assert.equal(facet(await search(svc, 'crossing', 0, 10), 'platform'), { hive: 4 })
    const added = ds('db.tie_new', 'postgres')
    assert.is((await propose(svc, added, 'datasetProperties', { name: 'zebra new', description: 'plain table' })).status, 200)
    const afterAll = await search(svc, '*', 0, 10)
    const afterWord = await search(svc, 'zebra', 0, 10)
    assert.is(afterAll.numEntities, 13)
    assert.equal(facet(afterAll, 'platform'), { hive: 4, kafka: 4, s3: 4, postgres: 1 })
    assert.is(afterWord.numEntities, 13)
    assert.equal(facet(afterWord, 'platform'), { hive: 4, kafka: 4, s3: 4, postgres: 1 })
    assert.equal(facet(await search(svc, 'plain', 0, 10), 'platform'), { kafka: 4, s3: 4, postgres: 1 })
    assert.equal(facet(await search(svc, 'crossing', 0, 10), 'platform'), { hive: 4 })
    assert.is((await propose(svc, added, 'status', { removed: true })).status, 200)
    assert.equal(facet(await search(svc, '*', 0, 10), 'platform'), { hive: 4, kafka: 4, s3: 4 })
    assert.equal(facet(await search(svc, 'zebra', 0, 10), 'platform'), { hive: 4, kafka: 4, s3: 4 })
    assert.is((await propose(svc, added, 'status', { removed: false })).status, 200)
    assert.equal(facet(await search(svc, 'zebra', 0, 10), 'platform'), { hive: 4, kafka: 4, s3: 4, postgres: 1 })
    assert.equal(facet(await search(svc, '*', 0, 10), 'platform'), { hive: 4, kafka: 4, s3: 4, postgres: 1 })
  })

  test('a changed facet value moves its count at once', async ({ svc, urns }) => {
    const urn = urns[0]!
    await search(svc, 'zebra', 0, 10)
    assert.is((await propose(svc, urn, 'globalTags', { tags: [{ tag: 'urn:svc:tag:Striped' }] })).status, 200)
    assert.equal(facet(await search(svc, 'zebra', 0, 10), 'tags'), { 'urn:svc:tag:Striped': 1 })
    assert.equal(facet(await search(svc, '*', 0, 10), 'tags'), { 'urn:svc:tag:Striped': 1 })
    assert.is((await propose(svc, urn, 'globalTags', { tags: [] })).status, 200)
    assert.is(facet(await search(svc, 'zebra', 0, 10), 'tags'), undefined)
    assert.is(facet(await search(svc, '*', 0, 10), 'tags'), undefined)
  })
  test('a match-all spells each of many facet values as it was written', async ({ svc, urns }) => {
    // More than a few values of a small hash: the native script reads their spellings with one HGETALL.
    const tags = urns.map((_, i) => `urn:svc:tag:Mixed_${i}_Case`)
    for (const [i, urn] of urns.entries()) assert.is((await propose(svc, urn, 'globalTags', { tags: [{ tag: tags[i] }] })).status, 200)
    const expected = Object.fromEntries(tags.map((t) => [t, 1]))
    assert.equal(facet(await search(svc, '*', 0, 10), 'tags'), expected)
    assert.equal(facet(await search(svc, 'zebra', 0, 10), 'tags'), expected)
    for (const urn of urns) assert.is((await propose(svc, urn, 'globalTags', { tags: [] })).status, 200)
    assert.is(facet(await search(svc, '*', 0, 10), 'tags'), undefined)
  })

  test('a facet reports its SEARCH_FACET_VALUES most frequent values, ties by value, however the query is answered', async ({ svc }) => {
    // Tag counts b 4, then A, c and D tied at 2, then e 1: the 3 shown are b, A and c, by a match-all (the native
    // script's kept counts), a word (counted from its matches), a facet value alone and a filter.
    const tagged = [['b', 'A', 'c'], ['b', 'A', 'D'], ['b', 'c', 'D'], ['b', 'e']]
    const urns = tagged.map((_, i) => ds(`quagga_${i}`, 'hive'))
    for (const [i, urn] of urns.entries()) {
      assert.is((await propose(svc, urn, 'datasetProperties', { name: `quagga ${i}` })).status, 200)
      assert.is((await propose(svc, urn, 'globalTags', { tags: tagged[i]!.map((t) => ({ tag: `urn:svc:tag:${t}` })) })).status, 200)
    }
    // A second gateway on the same store, showing 3 values a facet.
    const narrow = await startService({ ...overrides, keyPrefix: svc.config.keyPrefix, facetValues: 3 }, { workers: false })
    try {
      const expected = { 'urn:svc:tag:b': 4, 'urn:svc:tag:A': 2, 'urn:svc:tag:c': 2 }
      const hive = { or: [{ and: [{ field: 'platform', condition: 'EQUAL', values: ['urn:svc:dataPlatform:hive'] }] }] }
      for (const [input, filter] of [['*'], ['quagga'], ['tags:urn:svc:tag:b'], ['*', hive]] as const) {
        const res = await narrow.call('POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 10, filter })
        assert.is(res.status, 200, JSON.stringify(res.body))
        const tags = facet(res.body.value, 'tags')
        assert.equal(tags, expected, `${input} ${filter ? 'with a filter' : ''}`)
        assert.equal(Object.keys(tags!), Object.keys(expected), `${input}: most frequent first, ties by value`)
      }
      // The suite's gateway shows upstream's 20: all five.
      assert.is(Object.keys(facet(await search(svc, 'quagga', 0, 10), 'tags')!).length, 5)
    } finally {
      await narrow.close()
      for (const urn of urns) assert.is((await propose(svc, urn, 'status', { removed: true })).status, 200)
    }
  })

  test('facets of a filter on many values (a union of more than 16 postings), and of its negation, count exactly their matches', async ({ svc }) => {
    // Twelve names that exist and eight that do not: the native engine counts such a union from its documents'
    // numbers (cheaper than building its bitmap from every member), its negation from the live bitmap.
    const values = [...Array.from({ length: 12 }, (_, i) => `db.tie_${String(i).padStart(2, '0')}`), ...Array.from({ length: 8 }, (_, i) => `db.absent_${i}`)]
    const filtered = async (negated: boolean) => {
      const res = await svc.call('POST', '/entities?action=search', { input: '*', entity: 'dataset', start: 0, count: 100, filter: { or: [{ and: [{ field: 'name', condition: 'EQUAL', values, negated }] }] } })
      assert.is(res.status, 200, JSON.stringify(res.body))
      return res.body.value
    }
    const all = await search(svc, '*', 0, 100)
    const matched = await filtered(false)
    assert.is(matched.numEntities, 12)
    assert.equal(facet(matched, 'platform'), { hive: 4, kafka: 4, s3: 4 })
    const rest = await filtered(true)
    assert.is(rest.numEntities, all.numEntities - 12)
    const expected = Object.fromEntries(Object.entries(facet(all, 'platform')!).map(([v, n]): [string, number] => [v, n - (PLATFORMS.includes(v) ? 4 : 0)]).filter(([, n]) => n > 0))
    assert.equal(facet(rest, 'platform') ?? {}, expected)
  })
  test('a word\'s pages past its first hundred join the order of the first ones, with the same total and facets', async ({ svc }) => {
    // 110 matches in two relevance groups (every fifth also has the word in its description), among 230 datasets
    // written out of urn order: fewer than half of the index, so the redisearch engine ranks windows of up to 100
    // in the module and deeper ones from its facet stream.
    const urns: string[] = []
    for (let k = 0; k < 230; k++) {
      const i = (k * 37) % 230
      const word = i < 110 ? 'okapi' : 'gnu'
      const urn = ds(`${word}_${String(i).padStart(3, '0')}`, word)
      if (word === 'okapi') urns.push(urn)
      assert.is((await propose(svc, urn, 'datasetProperties', { name: `${word} ${i}`, description: i % 5 === 0 ? `${word} herd` : 'grassland' })).status, 200)
    }
    const higher = urns.filter((u) => Number(/okapi_(\d+)/.exec(u)![1]) % 5 === 0).sort()
    const lower = urns.filter((u) => !higher.includes(u)).sort()
    const full = await search(svc, 'okapi', 0, 110)
    assert.is(full.numEntities, 110)
    assert.equal(full.entities, [...higher, ...lower])
    const joined: string[] = []
    for (let start = 0; start < 110; start += 10) {
      const page = await search(svc, 'okapi', start, 10)
      assert.is(page.numEntities, 110, `total on page ${start}`)
      assert.equal(facet(page, 'platform'), { okapi: 110 }, `facets on page ${start}`)
      joined.push(...page.entities)
    }
    assert.equal(joined, full.entities)
  })
  if (name === 'redisearch') {
    test('a store written before the facet lines, string lexicons, facet co-occurrence and ordered facet members gets them at start-up', async ({ svc }) => {
      const ranged = () => svc.call('POST', '/entities?action=search', { input: '*', entity: 'dataset', start: 0, count: 100, filter: { or: [{ and: [{ field: 'name', condition: 'GREATER_THAN', value: 'db.tie_05' }] }] } })
      const [word, range, kafka] = [await search(svc, 'zebra', 0, 100), (await ranged()).body.value, await search(svc, 'platform:kafka', 0, 100)]
      assert.ok(range.numEntities > 0)
      assert.ok(Object.keys(facet(kafka, 'origin') ?? {}).length > 0)
      // What an earlier version wrote: no facet line in the documents, no lexicons, no co-occurrence, no markers.
      const redis = svc.gateway.model.redis
      await scanKeys(redis, `${svc.config.keyPrefix}{*}:doc:dataset:*`, async (keys) => { for (const key of keys) await redis.hdel(key, '__facets') })
      await deleteKeys(redis, svc.config.keyPrefix, '{*}:idx:*:s[vn]:*')
      await deleteKeys(redis, svc.config.keyPrefix, '{*}:idx:*:co:*')
      await scanKeys(redis, `${svc.config.keyPrefix}{*}:idx:dataset:gen`, async (keys) => { for (const key of keys) await redis.hdel(key, 'lexicons', 'facetlines', 'cooccurrence', 'companions-ordered') })
      // An earlier version kept a facet value's urns in an unordered set (`fv:`): start-up drops those and lists them in order.
      const all = await search(svc, '*', 0, 100)
      await scanKeys(redis, `${svc.config.keyPrefix}{*}:idx:dataset:fz:*`, async (keys) => {
        for (const key of keys) {
          const members = await redis.zrange(key, 0, -1)
          await redis.del(key)
          await redis.sadd(key.replace(':fz:', ':fv:'), ...members)
        }
      })
      assert.is((await ranged()).body.value.numEntities, 0)
      await svc.gateway.model.engine.ensureIndexes()
      assert.equal(await search(svc, 'zebra', 0, 100), word)
      assert.equal((await ranged()).body.value, range)
      assert.equal(await search(svc, 'platform:kafka', 0, 100), kafka)
      assert.equal(await search(svc, '*', 0, 100), all)
      let former = 0
      await scanKeys(redis, `${svc.config.keyPrefix}{*}:idx:dataset:fv:*`, async (keys) => { former += keys.length })
      assert.is(former, 0, 'the unordered sets are gone')
    })
  }
  test('restore indices brings back a lost index and its counts', async ({ svc }) => {
    const before = await search(svc, '*', 0, 100)
    const word = await search(svc, 'zebra', 0, 100)
    // Everything the engine indexes (documents, postings, the redisearch companions) but the module's schema hash.
    for (const pattern of name !== 'redisearch' ? ['{*}:ix:*', '{*}:doc:*'] : ['{*}:doc:*', '{*}:idx:*:live', '{*}:idx:*:fz:*', '{*}:idx:*:fvals:*']) {
      await deleteKeys(svc.gateway.model.redis, svc.config.keyPrefix, pattern)
    }
    assert.is((await search(svc, '*', 0, 100)).numEntities, 0)
    const admin = await tokenFor(svc, 'admin')
    let start: number | null = 0
    while (start !== null) {
      const res = await svc.call('POST', '/operations?action=restoreIndices', { start, batchSize: 5 }, { authorization: `Bearer ${admin}` })
      assert.is(res.status, 200, JSON.stringify(res.body))
      start = res.body.value.result.nextStart
    }
    assert.equal(await search(svc, '*', 0, 100), before)
    assert.equal(await search(svc, 'zebra', 0, 100), word)
  })
  test.run()
}
