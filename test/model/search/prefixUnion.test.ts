/**
 * A word prefix matching several words (a union of their postings), on every engine: pages of any size and start
 * follow one order (relevance, then urn), each match comes once, the total and the facets count the matches
 * exactly. On the native engine shallow pages are merged from the words' postings in the gateway's copy
 * (wordQuery.ts) and deeper ones from every match: the two must agree.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService, searchEngines } from '../../helpers/service.ts'

const ds = (i: number, platform: string) => `urn:svc:dataset:(urn:svc:dataPlatform:${platform},db.pre_${String(i).padStart(2, '0')},PROD)`
const PLATFORMS = ['hive', 'kafka', 's3', 'postgres']
// Words sharing the prefix "alp"; each dataset has one or two of them, in its name (weighs more) or description.
const WORDS = ['alpha', 'alpine', 'alps']

const propose = (svc: TestService, urn: string, value: unknown) =>
  svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify(value), contentType: 'application/json' } } })

async function search(svc: TestService, input: string, start: number, count: number) {
  const res = await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start, count })
  assert.is(res.status, 200, JSON.stringify(res.body))
  return res.body.value
}

for (const { name, overrides } of searchEngines('prefix unions')) {
  const test = suite<{ svc: TestService; platformOf: Map<string, string>; matching: Set<string> }>(`prefix unions [${name}]`)
  test.before(async (ctx) => {
    ctx.svc = await startService(overrides)
    ctx.platformOf = new Map()
    ctx.matching = new Set()
    // 40 datasets written out of urn order; every fifth has no word of the prefix.
    for (let k = 0; k < 40; k++) {
      const i = (k * 17) % 40
      const platform = PLATFORMS[i % PLATFORMS.length]!
      const urn = ds(i, platform)
      ctx.platformOf.set(urn, platform)
      const inName = i % 5 === 4 ? 'plain' : WORDS[i % 3]!
      const inDescription = i % 5 === 4 ? 'nothing here' : i % 2 === 0 ? `about ${WORDS[(i + 1) % 3]}` : 'about tables'
      if (i % 5 !== 4) ctx.matching.add(urn)
      assert.is((await propose(ctx.svc, urn, { name: `${inName} ${i}`, description: inDescription })).status, 200)
    }
  })
  test.after(async (ctx) => { await ctx.svc.close() })

  test('pages of a prefix union of any start and size join into one order, each match once, total exact', async ({ svc, matching }) => {
    const full = await search(svc, 'alp*', 0, 100)
    assert.is(full.numEntities, matching.size)
    assert.equal(new Set(full.entities), matching)
    for (const size of [1, 3, 7]) {
      const joined: string[] = []
      for (let start = 0; start < matching.size; start += size) {
        const page = await search(svc, 'alp*', start, size)
        assert.is(page.numEntities, matching.size, `total on the page from ${start} of ${size}`)
        joined.push(...page.entities)
      }
      assert.equal(joined, full.entities, `pages of ${size}`)
    }
  })

  test('the facets of a prefix union count its matches', async ({ svc, platformOf, matching }) => {
    const expected: Record<string, number> = {}
    for (const urn of matching) expected[platformOf.get(urn)!] = (expected[platformOf.get(urn)!] ?? 0) + 1
    const page = await search(svc, 'alp*', 0, 5)
    const platform = page.metadata.searchResultMetadatas.find((f: { name: string }) => f.name === 'platform')
    const counts = Object.fromEntries(Object.entries(platform.aggregations as Record<string, number>).map(([k, v]) => [k.replace('urn:svc:dataPlatform:', ''), v]))
    assert.equal(counts, expected)
  })

  test('a prefix union after another word, and after a write, stays exact', async ({ svc, matching }) => {
    const withWord = await search(svc, 'tables alp*', 0, 100)
    assert.ok(withWord.numEntities > 0 && withWord.numEntities < matching.size, `tables alp*: ${withWord.numEntities} of ${matching.size}`)
    const urn = ds(4, 'hive') // had no word of the prefix
    assert.is((await propose(svc, urn, { name: 'alpaca 4', description: 'new' })).status, 200)
    const after = await search(svc, 'alp*', 0, 2)
    assert.is(after.numEntities, matching.size + 1)
    const all = await search(svc, 'alp*', 0, 100)
    assert.ok(all.entities.includes(urn))
    assert.equal((await search(svc, 'alp*', 2, 3)).entities, all.entities.slice(2, 5))
  })

  test.run()
}
