/**
 * Queries of words answered from a gateway's copy of the words (model/search/native/wordCopy.ts, wordQuery.ts),
 * through the service on the pass's real Redis, with the two ways a filter is applied to them: facet values and
 * names' conditions checked on the copies (model/search/native/localFilter.ts; a match-all query with a name's
 * condition is answered from its documents too), and any other filter resolved to its documents by the search
 * script. Each answer with such criteria alone equals the answer with a criterion every document meets added (which
 * only the script resolves), in order, total and facets, and stays so after words change, documents leave and come
 * back.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService } from '../../helpers/service.ts'

const words = suite<{ svc: TestService }>('native queries of words answered from the copy of the words')
const ds = (platform: string, name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:${platform},${name},PROD)`
const aspect = (urn: string, aspectName: string, value: unknown) => ({
  entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' },
})
const WORDS = ['orders', 'order', 'ordinal', 'users', 'user', 'revenue', 'daily', 'hourly', 'events', 'event']
const PLATFORMS = ['hive', 'kafka', 's3']
const TAGS = ['Gold', 'PII', 'Silver']

/** Dataset k: a name and description drawn from WORDS, a platform, 0-2 tags. */
function dataset(k: number, salt = 0): { urn: string; proposals: unknown[] } {
  const w = (i: number) => WORDS[(k * 7 + i * 3 + salt) % WORDS.length]!
  const urn = ds(PLATFORMS[k % PLATFORMS.length]!, `${w(0)}_${w(1)}_${k}`)
  const tags = TAGS.filter((_, t) => (k + t + salt) % 3 === 0).map((t) => ({ tag: `urn:svc:tag:${t}` }))
  return {
    urn,
    proposals: [
      aspect(urn, 'datasetProperties', { name: `${w(0)} ${w(2)} ${k}`, description: `${w(1)} ${w(2)} ${w(3)} of the ${w(4)} team` }),
      aspect(urn, 'globalTags', { tags }),
    ],
  }
}

async function write(svc: TestService, proposals: unknown[]): Promise<void> {
  const res = await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals })
  assert.is(res.status, 200, JSON.stringify(res.body))
}

/** The criterion every document meets that only the script resolves (a range on the urn). */
const EVERY = { field: 'urn', condition: 'START_WITH', value: 'urn:' }

interface Query { input: string; start?: number; groups?: Record<string, unknown>[][] }

async function ask(svc: TestService, q: Query, viaScript: boolean) {
  const groups = q.groups ?? []
  const or = viaScript ? (groups.length === 0 ? [[EVERY]] : groups.map((g) => [...g, EVERY])) : groups
  const body = { input: q.input, entity: 'dataset', start: q.start ?? 0, count: 7, ...(or.length > 0 ? { filter: { or: or.map((and) => ({ and })) } } : {}) }
  const res = await svc.call('POST', '/entities?action=search', body)
  assert.is(res.status, 200, JSON.stringify(res.body))
  const v = res.body.value
  const facets = Object.fromEntries((v.metadata.searchResultMetadatas as { name: string; aggregations: Record<string, number> }[]).map((f) => [f.name, f.aggregations]))
  return { total: v.numEntities as number, entities: v.entities as string[], facets }
}

const QUERIES: Query[] = [
  { input: 'orders' }, { input: 'order' }, { input: 'ord' }, { input: 'daily' }, { input: 'users hour' }, { input: 'revenue daily' },
  { input: 'event' }, { input: 'orders', start: 5 }, { input: 'ev', start: 3 }, { input: 'nothing' }, { input: 'orders nothing' },
  { input: 'orders', groups: [[{ field: 'platform', condition: 'EQUAL', value: 'urn:svc:dataPlatform:kafka' }]] },
  { input: 'user', groups: [[{ field: 'platform', condition: 'EQUAL', value: 's3' }]] },
  { input: 'daily', groups: [[{ field: 'tags', condition: 'EQUAL', values: ['urn:svc:tag:Gold', 'urn:svc:tag:PII'] }]] },
  { input: 'daily', groups: [[{ field: 'tags', condition: 'EQUAL', value: 'urn:svc:tag:gold', negated: true }]] },
  { input: 'rev', groups: [[{ field: 'tags', condition: 'EQUAL', value: 'urn:svc:tag:Silver' }], [{ field: 'platform', condition: 'EQUAL', value: 'hive' }]] },
  // Names' conditions, checked on the copy of the pairs (localFilter.ts), with words and without.
  { input: 'orders', groups: [[{ field: 'name', condition: 'CONTAIN', value: 'user' }]] },
  { input: 'daily', groups: [[{ field: 'name', condition: 'GREATER_THAN', value: 'order' }, { field: 'platform', condition: 'EQUAL', value: 'hive' }]] },
  { input: '*', groups: [[{ field: 'name', condition: 'START_WITH', value: 'ord' }]] },
  { input: '*', start: 2, groups: [[{ field: 'name', condition: 'CONTAIN', value: 'ly' }, { field: 'tags', condition: 'EQUAL', value: 'urn:svc:tag:Gold' }]] },
  { input: '*', groups: [[{ field: 'name', condition: 'END_WITH', value: '1' }], [{ field: 'name', condition: 'LESS_THAN', value: 'e' }]] },
  { input: '*', groups: [[{ field: 'name', condition: 'CONTAIN', value: 'user', negated: true }, { field: 'name', condition: 'START_WITH', value: 'r' }]] },
  { input: '*', groups: [[{ field: 'name', condition: 'CONTAIN', value: 'nothing' }]] },
]

async function sameAnswers(svc: TestService, when: string): Promise<void> {
  for (const q of QUERIES) {
    const here = await ask(svc, q, false)
    const script = await ask(svc, q, true)
    assert.equal(here, script, `${when}: ${JSON.stringify(q)}`)
  }
}

words.before(async (ctx) => {
  ctx.svc = await startService({ searchEngine: 'native', nativeTallyMin: 1 })
  await write(ctx.svc, Array.from({ length: 60 }, (_, k) => dataset(k).proposals).flat())
})
words.after(async (ctx) => { await ctx.svc.close() })

words('answers equal the script\'s: words, prefixes, deep pages, facet filters (ids, negated, groups)', async ({ svc }) => {
  const some = await ask(svc, { input: 'orders' }, false)
  assert.ok(some.total > 5 && some.entities.length === 7, 'the catalogue has matches to page through')
  await sameAnswers(svc, 'loaded')
})

words('a write acknowledged is in the next answer: words changed, a document removed and written again', async ({ svc }) => {
  // Other words for a third of the datasets (each write changes the words of its document).
  await write(svc, Array.from({ length: 20 }, (_, k) => dataset(k * 3, 1).proposals).flat())
  await sameAnswers(svc, 'after words changed')
  const gone = dataset(4).urn
  assert.is((await svc.call('POST', '/entities?action=delete', { urn: gone })).status, 200)
  assert.not.ok((await ask(svc, { input: 'user' }, false)).entities.includes(gone))
  await sameAnswers(svc, 'after a removal')
  await write(svc, [...dataset(61).proposals, ...dataset(4, 2).proposals])
  await sameAnswers(svc, 'after new documents (one may take the freed number)')
})

words('an answer worked out on the copy before it caught up is not kept once a write changed its words', async ({ svc }) => {
  const urn = ds('hive', 'guess_check')
  const describe = (description: string) => write(svc, [aspect(urn, 'datasetProperties', { name: 'guess check', description })])
  const find = async (input: string) => {
    const res = await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 5 })
    assert.is(res.status, 200, JSON.stringify(res.body))
    return { urns: res.body.value.entities as string[], matched: JSON.stringify(res.body.value.metadata.matches) }
  }
  await describe('quokka first')
  assert.equal((await find('quokka')).urns, [urn])
  for (let round = 0; round < 5; round++) {
    // Each query's copy is asked before the write it follows is read from the log: the answer must still have it.
    await describe(`wombat round ${round}`)
    assert.equal((await find('quokka')).urns, [], `round ${round}: the old word is gone`)
    const now = await find('wombat')
    assert.equal(now.urns, [urn], `round ${round}: the new word is there`)
    assert.match(now.matched, `wombat round ${round}`, `round ${round}: its matched fields are the new description's`)
    await describe('quokka again')
    assert.equal((await find('quokka')).urns, [urn], `round ${round}: the word is back`)
    assert.match((await find('quok*')).matched, 'quokka again')
  }
})

words('a word prefix with more words than a query may match is refused', async () => {
  const svc = await startService({ searchEngine: 'native', maxFilterValues: 2 })
  try {
    await write(svc, Array.from({ length: 12 }, (_, k) => dataset(k).proposals).flat())
    const res = await svc.call('POST', '/entities?action=search', { input: 'or', entity: 'dataset', start: 0, count: 5 })
    assert.is(res.status, 400, JSON.stringify(res.body))
    assert.match(JSON.stringify(res.body), 'FILTER_TOO_BROAD')
  } finally {
    await svc.close()
  }
})

words.run()
