/**
 * One conformance suite, run against both search engines: `native` always, `redisearch` when a Redis with the
 * search module is available (a standalone server or the pass's cluster, set by test/runPass.ts); otherwise it says
 * that it skipped.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fixture, isInSpec } from '../../helpers/fixtures.ts'
import { startService, searchEngines, type TestService } from '../../helpers/service.ts'

const engines = searchEngines('search conformance')

const examples = fixture('examples.json')
const bootstrap = fixture('bootstrap_mce.requests.json')
const example = (prefix: string) => examples.find((e) => e.name.startsWith(prefix))!
const send = (svc: TestService, r: { method: string; path: string; body: unknown }) => svc.call(r.method, r.path, r.body ?? undefined)
const search = (svc: TestService, body: Record<string, unknown>) => svc.call('POST', '/entities?action=search', { start: 0, count: 10, ...body })
const facet = (res: { body: any }, name: string) => res.body.value.metadata.searchResultMetadatas.find((f: { name: string }) => f.name === name)?.aggregations
const propose = (svc: TestService, entityType: string, urn: string, aspectName: string, value: unknown) =>
  svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType, entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } } })
const ds = (name: string, platform = 'hive') => `urn:svc:dataset:(urn:svc:dataPlatform:${platform},${name},PROD)`

for (const { name, overrides } of engines) {
  // ---- the upstream guide's examples ------------------------------------------------------------------------
  const guide = suite<{ svc: TestService }>(`search conformance [${name}]: guide examples`)
  guide.before(async (ctx) => {
    ctx.svc = await startService(overrides)
    for (const e of examples.filter((x) => x.method === 'POST' && /action=ingest(Proposal)?$/.test(x.path))) {
      assert.is((await send(ctx.svc, e)).status, 200, e.name)
    }
  })
  guide.after(async (ctx) => { await ctx.svc.close() })

  guide('browse /looker (exact)', async ({ svc }) => {
    const e = example('browse: chart entities under /looker')
    assert.equal((await send(svc, e)).body, e.shownResponse)
  })
  guide('search chart "looker" (exact)', async ({ svc }) => {
    const e = example('search: chart "looker"')
    assert.equal((await send(svc, e)).body, e.shownResponse)
  })
  guide('search chart "looker" with filter title EQUAL (exact)', async ({ svc }) => {
    const e = example('search: chart "looker" with filter')
    assert.equal((await send(svc, e)).body, e.shownResponse)
  })
  guide('search tags:Engineering', async ({ svc }) => {
    const e = example('search: datasets tagged Engineering')
    const res = await send(svc, e)
    const shown = (e.shownResponse as any).value
    assert.is(res.body.value.numEntities, 1)
    assert.equal(res.body.value.entities, shown.entities)
    assert.equal(res.body.value.metadata.urns, shown.metadata.urns)
    assert.equal(res.body.value.metadata.matches, shown.metadata.matches)
    assert.equal(facet(res, 'platform'), { foo: 1 })
    assert.equal(facet(res, 'origin'), { PROD: 1 })
    assert.equal(facet(res, 'tags'), { 'urn:svc:tag:Engineering': 1 })
    assert.equal(facet(res, 'owners'), { 'urn:svc:corpuser:fbar': 1 })
    const byUrn = await search(svc, { input: 'tags:urn:svc:tag:Engineering', entity: 'dataset' })
    assert.equal(byUrn.body.value.entities, shown.entities)
  })
  guide('autocomplete "Baz Ch" (exact), "Baz C" with a filter (query echoed)', async ({ svc }) => {
    const e = example('autocomplete: chart "Baz Ch"')
    assert.equal((await send(svc, e)).body, e.shownResponse)
    const filtered = await send(svc, example('autocomplete: chart "Baz C" with filter'))
    assert.equal(filtered.body, { value: { suggestions: ['Baz Chart 1'], query: 'Baz C' } })
    const excluded = await svc.call('POST', '/entities?action=autocomplete', { query: 'Baz C', entity: 'chart', limit: 10, filter: { or: [{ and: [{ field: 'tool', value: 'tableau', condition: 'EQUAL' }] }] } })
    assert.equal(excluded.body.value.suggestions, [])
  })
  guide('soft delete hides from search, browse and autocomplete; undo brings it back', async ({ svc }) => {
    const chart = 'urn:svc:chart:(looker,baz1)'
    const status = (removed: boolean) => svc.call('POST', '/entities?action=ingest', { entity: { value: { 'com.svc.metadata.snapshot.ChartSnapshot': { urn: chart, aspects: [{ 'com.svc.common.Status': { removed } }] } } } })
    // Asked before the write too: an answer remembered then must not outlive it.
    assert.not.equal((await svc.call('POST', '/entities?action=autocomplete', { query: 'Baz', entity: 'chart', limit: 10 })).body.value.suggestions, [])
    assert.is((await status(true)).status, 200)
    assert.equal((await search(svc, { input: 'looker', entity: 'chart' })).body.value.entities, [])
    assert.equal((await search(svc, { input: '*', entity: 'chart' })).body.value.numEntities, 0)
    assert.equal((await svc.call('POST', '/entities?action=browse', { path: '/looker', entity: 'chart', start: 0, limit: 10 })).body.value.entities, [])
    assert.equal((await svc.call('POST', '/entities?action=autocomplete', { query: 'Baz', entity: 'chart', limit: 10 })).body.value.suggestions, [])
    assert.is((await svc.call('GET', `/entities/${encodeURIComponent(chart)}`)).status, 200, 'still readable')
    assert.is((await status(false)).status, 200)
    assert.equal((await search(svc, { input: 'looker', entity: 'chart' })).body.value.entities, [chart])
    assert.equal((await svc.call('POST', '/entities?action=browse', { path: '/looker', entity: 'chart', start: 0, limit: 10 })).body.value.entities, [{ name: 'baz1', urn: chart }])
  })
  guide('a word longer than a prefix may be (1,024 characters) is matched whole, not refused', async ({ svc }) => {
    for (const word of ['x'.repeat(1025), 'é'.repeat(1100), `looker${'x'.repeat(1024)}`]) {
      const res = await search(svc, { input: word, entity: 'chart' })
      assert.is(res.status, 200, JSON.stringify(res.body).slice(0, 300))
      assert.is(res.body.value.numEntities, 0)
      const v3 = await svc.call('GET', `/openapi/v3/entity/chart?query=${encodeURIComponent(word)}`)
      assert.is(v3.status, 200, JSON.stringify(v3.body).slice(0, 300))
    }
    assert.is((await search(svc, { input: 'x'.repeat(1024), entity: 'chart' })).status, 200)
  })
  guide.run()

  // ---- the bootstrap catalogue ------------------------------------------------------------------------------
  const cat = suite<{ svc: TestService }>(`search conformance [${name}]: bootstrap catalogue`)
  cat.before(async (ctx) => {
    ctx.svc = await startService(overrides)
    for (const r of bootstrap) {
      const res = await send(ctx.svc, r)
      if (isInSpec(r)) assert.is(res.status, 200, r.name)
    }
  })
  cat.after(async (ctx) => { await ctx.svc.close() })

  cat('free text "sample" finds the three Sample datasets', async ({ svc }) => {
    const res = await search(svc, { input: 'sample', entity: 'dataset' })
    assert.ok(res.body.value.numEntities >= 3)
    for (const n of ['SampleKafkaDataset', 'SampleHdfsDataset', 'SampleHiveDataset']) {
      assert.ok(res.body.value.entities.some((u: string) => u.includes(n)), n)
    }
  })
  cat('camelCase parts, prefixes and several words', async ({ svc }) => {
    const hits = async (input: string) => (await search(svc, { input, entity: 'dataset', count: 100 })).body.value.entities as string[]
    assert.equal(await hits('hdfs dataset'), [ds('SampleHdfsDataset', 'hdfs')])
    assert.ok((await hits('samp')).length >= 3)
    assert.equal(await hits('samp*'), await hits('samp'), 'a trailing * marks the prefix too')
    assert.equal(await hits('sampl'), await hits('samp'))
    assert.ok((await hits('users')).length >= 2, 'fct_users_created and fct_users_deleted')
    assert.equal(await hits('nothing-like-this'), [])
  })
  cat('tags: exact match and facet counts', async ({ svc }) => {
    const res = await search(svc, { input: 'tags:Legacy', entity: 'dataset' })
    assert.equal(res.body.value.entities, [ds('SampleHiveDataset')])
    const all = await search(svc, { input: '*', entity: 'dataset' })
    assert.is(all.body.value.numEntities, 7, 'the 7 bootstrap datasets')
    assert.equal(facet(all, 'platform'), { hive: 4, hdfs: 1, kafka: 1, s3: 1 })
    assert.equal(facet(all, 'origin'), { PROD: 7 })
    assert.equal(facet(all, 'tags'), { 'urn:svc:tag:Legacy': 1 })
    assert.equal(facet(all, 'owners'), { 'urn:svc:corpuser:jdoe': 7, 'urn:svc:corpuser:svc': 7 })
    const charts = await search(svc, { input: '*', entity: 'chart' })
    assert.equal(facet(charts, 'tool'), { looker: 2 })
  })
  cat('paging and urn order for "*"', async ({ svc }) => {
    const first = await search(svc, { input: '*', entity: 'dataset', start: 0, count: 3 })
    const rest = await search(svc, { input: '*', entity: 'dataset', start: 3, count: 10 })
    const all = [...first.body.value.entities, ...rest.body.value.entities]
    assert.is(all.length, 7)
    assert.equal(all, [...all].sort())
    assert.is(first.body.value.pageSize, 3)
    assert.is(rest.body.value.from, 3)
  })
  cat('every filter condition', async ({ svc }) => {
    const filtered = async (field: string, condition: string, value: string, input = '*') =>
      ((await search(svc, { input, entity: 'dataset', count: 100, filter: { or: [{ and: [{ field, value, condition }] }] } })).body.value.entities as string[]).sort()
    assert.equal(await filtered('platform', 'EQUAL', 'urn:svc:dataPlatform:kafka'), [ds('SampleKafkaDataset', 'kafka')])
    assert.equal(await filtered('platform', 'EQUAL', 'kafka'), [ds('SampleKafkaDataset', 'kafka')])
    assert.equal(await filtered('name', 'EQUAL', 'samplehivedataset'), [ds('SampleHiveDataset')])
    assert.equal(await filtered('name', 'START_WITH', 'fct_'), [ds('fct_users_created'), ds('fct_users_deleted')])
    assert.equal(await filtered('name', 'END_WITH', '_deleted'), [ds('fct_users_deleted')])
    assert.equal(await filtered('name', 'CONTAIN', 'users_cr'), [ds('fct_users_created')])
    assert.equal(await filtered('name', 'GREATER_THAN', 'sample'), [ds('SampleHdfsDataset', 'hdfs'), ds('SampleHiveDataset'), ds('SampleKafkaDataset', 'kafka')].sort())
    assert.equal(await filtered('name', 'GREATER_THAN_OR_EQUAL_TO', 'samplekafkadataset'), [ds('SampleKafkaDataset', 'kafka')])
    assert.equal(await filtered('name', 'LESS_THAN', 'fct_users_deleted'), [ds('fct_users_created')])
    assert.equal(await filtered('name', 'LESS_THAN_OR_EQUAL_TO', 'fct_users_deleted'), [ds('fct_users_created'), ds('fct_users_deleted')])
    assert.equal(await filtered('platform', 'EQUAL', 'hive', 'users'), [ds('fct_users_created'), ds('fct_users_deleted')])
  })
  cat('EQUAL on a name: any case, several values, negated, as field:value, beside a criterion the script answers', async ({ svc }) => {
    const found = async (body: Record<string, unknown>) => ((await search(svc, { entity: 'dataset', count: 100, ...body })).body.value.entities as string[]).sort()
    const where = (...and: Record<string, unknown>[]) => ({ or: [{ and }] })
    const all = await found({ input: '*' })
    const hive = ds('SampleHiveDataset')
    assert.equal(await found({ input: '*', filter: where({ field: 'name', value: 'SAMPLEHIVEDATASET', condition: 'EQUAL' }) }), [hive])
    assert.equal(await found({ input: '*', filter: where({ field: 'name', values: ['samplehivedataset', 'fct_users_created', 'nothing'], condition: 'EQUAL' }) }), [hive, ds('fct_users_created')].sort())
    assert.equal(await found({ input: '*', filter: where({ field: 'name', value: 'samplehivedataset', condition: 'EQUAL', negated: true }) }), all.filter((u) => u !== hive))
    assert.equal(await found({ input: 'name:SampleHiveDataset' }), [hive])
    assert.equal(await found({ input: '*', filter: where({ field: 'name', value: 'samplehive', condition: 'EQUAL' }) }), [])
    // With a condition on the urn, which only the search script answers.
    assert.equal(await found({ input: '*', filter: where({ field: 'name', value: 'samplehivedataset', condition: 'EQUAL' }, { field: 'urn', value: 'urn:svc:dataset:(urn:svc:dataPlatform:hive', condition: 'START_WITH' }) }), [hive])
    assert.equal(await found({ input: '*', filter: where({ field: 'name', value: 'samplehivedataset', condition: 'EQUAL' }, { field: 'urn', value: 'urn:svc:dataset:(urn:svc:dataPlatform:kafka', condition: 'START_WITH' }) }), [])
    // A name changed is found by its new value only, at once.
    assert.is((await propose(svc, 'dataset', ds('fct_users_created'), 'datasetProperties', { name: 'Users Created Renamed' })).status, 200)
    assert.equal(await found({ input: '*', filter: where({ field: 'displayName', value: 'users created renamed', condition: 'EQUAL' }) }), [ds('fct_users_created')])
    assert.is((await propose(svc, 'dataset', ds('fct_users_created'), 'datasetProperties', { name: 'Users Created Again' })).status, 200)
    assert.equal(await found({ input: '*', filter: where({ field: 'displayName', value: 'users created renamed', condition: 'EQUAL' }) }), [])
    assert.equal(await found({ input: '*', filter: where({ field: 'displayName', value: 'Users Created Again', condition: 'EQUAL' }) }), [ds('fct_users_created')])
  })
  cat('one-character wildcards; a URN field\'s range and START_WITH compare whole urns', async ({ svc }) => {
    const filtered = async (field: string, condition: string, value: string, input = '*') =>
      ((await search(svc, { input, entity: 'dataset', count: 100, filter: { or: [{ and: [{ field, value, condition }] }] } })).body.value.entities as string[]).sort()
    const all = ((await search(svc, { input: '*', entity: 'dataset', count: 100 })).body.value.entities as string[]).sort()
    assert.equal(await filtered('name', 'START_WITH', 'F'), [ds('fct_users_created'), ds('fct_users_deleted')])
    const none = await search(svc, { input: '*', entity: 'dataset', count: 0, filter: { or: [{ and: [{ field: 'name', value: 'f', condition: 'START_WITH' }] }] } })
    assert.equal([none.body.value.numEntities, none.body.value.entities], [2, []])
    assert.equal(await filtered('name', 'END_WITH', 'd'), [ds('fct_users_created'), ds('fct_users_deleted')])
    assert.equal(await filtered('name', 'CONTAIN', 'k'), [ds('SampleKafkaDataset', 'kafka'), ...all.filter((u) => u.includes('_bckp'))].sort())
    assert.equal(await filtered('origin', 'START_WITH', 'p'), all)
    assert.equal(await filtered('name', 'CONTAIN', 'q'), [])
    const legacy = await filtered('tags', 'EQUAL', 'Legacy')
    assert.ok(legacy.length > 0)
    assert.equal(await filtered('tags', 'START_WITH', 'leg'), [])
    assert.equal(await filtered('tags', 'START_WITH', 'urn:svc:tag:Leg'), legacy)
    assert.equal(await filtered('platform', 'LESS_THAN', 'j'), [])
    assert.equal(await filtered('platform', 'GREATER_THAN', 'urn:svc:dataplatform:hive'), [ds('SampleKafkaDataset', 'kafka'), ...all.filter((u) => u.includes(':s3,'))].sort())
  })
  cat('or of and groups; negation', async ({ svc }) => {
    const res = await search(svc, {
      input: '*', entity: 'dataset', count: 100,
      filter: { or: [{ and: [{ field: 'platform', value: 'kafka', condition: 'EQUAL' }] }, { and: [{ field: 'platform', value: 'hive', condition: 'EQUAL' }, { field: 'tags', value: 'Legacy', condition: 'EQUAL' }] }] },
    })
    assert.equal(res.body.value.entities.sort(), [ds('SampleHiveDataset'), ds('SampleKafkaDataset', 'kafka')].sort())
    const negated = await search(svc, { input: '*', entity: 'dataset', count: 100, filter: { or: [{ and: [{ field: 'platform', value: 'hive', condition: 'EQUAL', negated: true }] }] } })
    assert.is(negated.body.value.numEntities, 3)
  })
  cat('a negated condition no value meets keeps everything, alone, beside others, with words and in autocomplete', async ({ svc }) => {
    const nothingAbove = { field: 'platform', value: 'urn:svc:dataPlatform:zzz', condition: 'GREATER_THAN', negated: true }
    const hive = { field: 'platform', value: 'hive', condition: 'EQUAL' }
    const all = (await search(svc, { input: '*', entity: 'dataset', count: 100 })).body.value.entities as string[]
    const hives = (await search(svc, { input: '*', entity: 'dataset', count: 100, filter: { or: [{ and: [hive] }] } })).body.value.entities as string[]
    const cases: [Record<string, unknown>, string[]][] = [
      [{ input: '*', filter: { or: [{ and: [nothingAbove] }] } }, all],
      [{ input: '*', filter: { or: [{ and: [nothingAbove, hive] }] } }, hives],
      [{ input: '*', filter: { or: [{ and: [hive] }, { and: [nothingAbove] }] } }, all],
      [{ input: 'users', filter: { or: [{ and: [nothingAbove] }] } }, [ds('fct_users_created'), ds('fct_users_deleted')]],
    ]
    for (const [body, expected] of cases) {
      const res = await search(svc, { entity: 'dataset', count: 100, ...body })
      assert.is(res.status, 200, JSON.stringify(res.body))
      assert.equal((res.body.value.entities as string[]).sort(), [...expected].sort(), JSON.stringify(body))
    }
    const suggested = await svc.call('POST', '/entities?action=autocomplete', { query: 'SampleH', entity: 'dataset', limit: 10, filter: { or: [{ and: [nothingAbove] }] } })
    assert.equal(suggested.body.value.suggestions, ['SampleHdfsDataset', 'SampleHiveDataset'])
  })
  cat('numeric range on a COUNT-free entity falls back to strings; unknown field is a 400', async ({ svc }) => {
    const res = await search(svc, { input: '*', entity: 'dataset', filter: { or: [{ and: [{ field: 'nope', value: 'x', condition: 'EQUAL' }] }] } })
    assert.is(res.status, 400)
    assert.is(res.body.code, 'UNKNOWN_FILTER_FIELD')
    assert.match(res.body.message, /nope/)
    const bad = await search(svc, { input: '*', entity: 'dataset', filter: { or: [{ and: [{ field: 'name', value: 'x', condition: 'LIKE' }] }] } })
    assert.is(bad.status, 400)
    assert.is(bad.body.code, 'INVALID_FILTER')
  })
  cat('autocomplete shows every spelling of a name, however many documents share it, as it is written now', async ({ svc }) => {
    const flow = (k: number) => `urn:svc:dataFlow:(airflow,spellzz_${k},PROD)`
    const name = (k: number, value: string) => propose(svc, 'dataFlow', flow(k), 'dataFlowInfo', { name: value })
    for (let k = 0; k < 6; k++) assert.is((await name(k, 'spellzz orders')).status, 200)
    assert.is((await name(6, 'Spellzz Orders')).status, 200)
    const ac = async (filter?: unknown) => ((await svc.call('POST', '/entities?action=autocomplete', { query: 'spellzz ord', entity: 'dataFlow', limit: 10, ...(filter ? { filter } : {}) })).body.value.suggestions as string[]).sort()
    assert.equal(await ac(), ['Spellzz Orders', 'spellzz orders'])
    assert.is((await name(6, 'SPELLZZ ORDERS')).status, 200)
    assert.equal(await ac(), ['SPELLZZ ORDERS', 'spellzz orders'])
    // With a filter, the spellings of the documents it keeps: the copies' (a name) and the script's (the urn).
    assert.equal(await ac({ or: [{ and: [{ field: 'name', value: 'SPELLZZ ORDERS', condition: 'EQUAL' }] }] }), ['SPELLZZ ORDERS', 'spellzz orders'])
    assert.equal(await ac({ or: [{ and: [{ field: 'urn', value: flow(6), condition: 'EQUAL' }] }] }), ['SPELLZZ ORDERS'])
    assert.equal(await ac({ or: [{ and: [{ field: 'urn', value: flow(6), condition: 'EQUAL', negated: true }] }] }), ['spellzz orders'])
  })
  cat('an empty value or `_` matches nothing (negated: everything), on any field, in a filter, a field:value or an autocomplete\'s filter', async ({ svc }) => {
    const all = ((await search(svc, { input: '*', entity: 'dataset', count: 100 })).body.value.entities as string[]).sort()
    const found = async (body: Record<string, unknown>) => {
      const res = await search(svc, { entity: 'dataset', count: 100, ...body })
      assert.is(res.status, 200, JSON.stringify(body))
      return (res.body.value.entities as string[]).sort()
    }
    for (const field of ['name', 'description', 'urn', 'origin', 'tags', 'owners', 'browsePaths']) {
      for (const value of ['', '_']) {
        assert.equal(await found({ input: '*', filter: { or: [{ and: [{ field, value, condition: 'EQUAL' }] }] } }), [], `${field} EQUAL ${JSON.stringify(value)}`)
        assert.equal(await found({ input: '*', filter: { or: [{ and: [{ field, value, condition: 'EQUAL', negated: true }] }] } }), all, `${field} NOT EQUAL ${JSON.stringify(value)}`)
      }
      assert.equal(await found({ input: '*', filter: { or: [{ and: [{ field, values: ['', '_'], condition: 'EQUAL' }] }] } }), [], `${field} EQUAL ['', '_']`)
    }
    assert.equal(await found({ input: '*', filter: { or: [{ and: [{ field: 'name', values: ['', 'samplehivedataset'], condition: 'EQUAL' }] }] } }), [ds('SampleHiveDataset')])
    assert.equal(await found({ input: 'name:_' }), [])
    assert.equal(await found({ input: 'origin:_' }), [])
    const suggested = await svc.call('POST', '/entities?action=autocomplete', { query: 'sample', entity: 'dataset', limit: 10, filter: { or: [{ and: [{ field: 'description', value: '', condition: 'EQUAL' }] }] } })
    assert.is(suggested.status, 200)
    assert.equal(suggested.body.value.suggestions, [])
  })
  cat('a numeric field takes numbers only: EQUAL of a non-number is a 400 naming it, as a range\'s is', async ({ svc }) => {
    const post = (id: string, created: number) => propose(svc, 'post', `urn:svc:post:${id}`, 'postInfo', {
      type: 'HOME_PAGE_ANNOUNCEMENT', content: { title: `Numbers ${id}`, type: 'TEXT' }, created, lastModified: created,
    })
    assert.is((await post('n0', 0)).status, 200)
    assert.is((await post('n5', 5)).status, 200)
    const where = (condition: string, value: unknown, extra: Record<string, unknown> = {}) => ({ input: '*', entity: 'post', count: 10, filter: { or: [{ and: [{ field: 'created', condition, value, ...extra }] }] } })
    for (const [condition, value] of [['EQUAL', 'abc'], ['EQUAL', ''], ['EQUAL', '1,000'], ['EQUAL', 'Infinity'], ['GREATER_THAN', '1e400'], ['LESS_THAN', ' '], ['GREATER_THAN', 'abc']]) {
      const res = await search(svc, where(condition!, value))
      assert.is(res.status, 400, `${condition} ${JSON.stringify(value)}`)
      assert.is(res.body.code, 'INVALID_FILTER')
      assert.match(res.body.message, /must be a number/)
    }
    const some = await search(svc, where('EQUAL', '5', { values: ['5', 'x'] }))
    assert.is(some.status, 400)
    assert.equal((await search(svc, where('EQUAL', '5'))).body.value.entities, ['urn:svc:post:n5'])
    assert.equal((await search(svc, where('EQUAL', 5))).body.value.entities, ['urn:svc:post:n5'])
    assert.equal((await search(svc, where('LESS_THAN_OR_EQUAL_TO', '5'))).body.value.entities, ['urn:svc:post:n0', 'urn:svc:post:n5'])
    assert.equal((await search(svc, where('LESS_THAN', '-1.5'))).body.value.entities, [])
    // As `field:value` the value is matched as written, a number or not.
    const asText = async (input: string) => { const res = await search(svc, { input, entity: 'post', count: 10 }); return [res.status, res.body.value?.entities] }
    assert.equal(await asText('created:5'), [200, ['urn:svc:post:n5']])
    assert.equal(await asText('created:abc'), [200, []])
  })
  cat('browse: groups and counts at every level', async ({ svc }) => {
    const browse = async (path: string) => (await svc.call('POST', '/entities?action=browse', { path, entity: 'dataset', start: 0, limit: 10 })).body.value
    const root = await browse('/')
    assert.equal(root.metadata.groups, [{ name: 'prod', count: 7 }])
    assert.is(root.metadata.totalNumEntities, 7)
    assert.equal(root.entities, [])
    const prod = await browse('/prod')
    assert.equal(prod.metadata.groups, [{ name: 'hdfs', count: 1 }, { name: 'hive', count: 4 }, { name: 'kafka', count: 1 }, { name: 's3', count: 1 }])
    assert.is(prod.metadata.totalNumEntities, 7)
    const hive = await browse('/prod/hive')
    // Default browse paths are lower-cased; entities come in urn order.
    assert.equal(hive.entities.map((e: { name: string }) => e.name), ['samplehivedataset', 'fct_users_created', 'fct_users_deleted', 'logging_events'])
    assert.is(hive.numEntities, 4)
    const page = await svc.call('POST', '/entities?action=browse', { path: '/prod/hive', entity: 'dataset', start: 1, limit: 2 })
    assert.is(page.body.value.pageSize, 2)
    assert.is(page.body.value.from, 1)
    assert.equal(page.body.value.entities, hive.entities.slice(1, 3))
  })
  cat('autocomplete: prefix and word-prefix, de-duplicated, limited', async ({ svc }) => {
    const ac = async (query: string, entity = 'dataset', limit = 10) => (await svc.call('POST', '/entities?action=autocomplete', { query, entity, limit })).body.value
    assert.equal((await ac('SampleH')).suggestions, ['SampleHdfsDataset', 'SampleHiveDataset'])
    assert.equal((await ac('samp', 'dataset', 2)).suggestions.length, 2)
    assert.ok((await ac('jd', 'corpuser')).suggestions.includes('jdoe'))
    // 2-3 letters: the redisearch engine asks the names' words rather than every indexed word start.
    for (const short of ['sa', 'Sam']) assert.ok((await ac(short)).suggestions.includes('SampleHiveDataset'), short)
    assert.equal((await ac('Baz', 'chart')).suggestions.sort(), ['Baz Chart 1', 'Baz Chart 2'])
    assert.equal((await ac('Chart 2', 'chart')).suggestions, ['Baz Chart 2'])
  })
  cat('autocomplete shows a name as written as soon as it is acknowledged, and a renamed one no more', async ({ svc }) => {
    const ac = async (query: string) => (await svc.call('POST', '/entities?action=autocomplete', { query, entity: 'dataset', limit: 10 })).body.value.suggestions
    const urn = ds('renamed_suggestion')
    assert.is((await propose(svc, 'dataset', urn, 'datasetProperties', { name: 'Quokka Ledger' })).status, 200)
    assert.equal(await ac('quokka l'), ['Quokka Ledger'])
    assert.equal(await ac('ledg'), ['Quokka Ledger'])
    assert.is((await propose(svc, 'dataset', urn, 'datasetProperties', { name: 'Wombat Ledger' })).status, 200)
    assert.equal(await ac('quokka'), [])
    assert.equal(await ac('ledg'), ['Wombat Ledger'])
  })
  cat('words match as written, lower-cased: no stems', async ({ svc }) => {
    for (const name of ['wallaby_payment', 'wallaby_payments']) assert.is((await propose(svc, 'dataset', ds(name), 'datasetProperties', { name })).status, 200)
    const found = async (input: string) => ((await search(svc, { input, entity: 'dataset', count: 100 })).body.value.entities as string[]).sort()
    assert.equal(await found('"wallaby payments"'), [ds('wallaby_payments')])
    assert.equal(await found('payments wallaby'), [ds('wallaby_payments')])
    assert.equal(await found('wallaby payment'), [ds('wallaby_payment'), ds('wallaby_payments')], 'the last word is a prefix')
  })
  cat('autocomplete: each spelling once, the same word starts, whole names first, one character, filters', async ({ svc }) => {
    const ac = async (query: string, filter?: unknown) => (await svc.call('POST', '/entities?action=autocomplete', { query, entity: 'dataset', limit: 10, ...(filter ? { filter } : {}) })).body.value.suggestions
    // Urns of other words: a dataset's name in its urn is suggested too.
    for (const [i, name, platform] of [[1, 'Numbat Orders', 'hive'], [2, 'NUMBAT ORDERS', 'kafka'], [3, 'Numbat Orders', 'hdfs'], [4, 'numbat orders daily', 'hive']]) {
      assert.is((await propose(svc, 'dataset', ds(`spelled_${i}`, String(platform)), 'datasetProperties', { name })).status, 200)
    }
    // A dataset's `name` is its urn's; `displayName` the name its properties give.
    assert.equal(await ac('numbat'), ['Numbat Orders', 'NUMBAT ORDERS', 'numbat orders daily'])
    assert.equal(await ac('ORDERS'), ['Numbat Orders', 'NUMBAT ORDERS', 'numbat orders daily'])
    // Names the module splits into words otherwise (`kp` + `iinventory`); a word start past the 6th suggests nothing.
    for (const [i, name] of [[7, 'KPIinventory'], [8, 'a-b-c-d-e-f-packaging'], [9, 'a-b-c-d-e-packaging'], [10, 'pacman']]) {
      assert.is((await propose(svc, 'dataset', ds(`spelled_${i}`), 'datasetProperties', { name: String(name) })).status, 200)
    }
    assert.equal(await ac('KPI'), ['KPIinventory'])
    assert.equal(await ac('pac', { or: [{ and: [{ field: 'platform', value: 'kafka', condition: 'EQUAL' }] }] }), [], 'the filter holds for both parts of the union')
    assert.equal(await ac('pac'), ['pacman', 'a-b-c-d-e-packaging'])
    assert.equal(await ac('packa'), ['a-b-c-d-e-packaging'])
    // One character (below the module's shortest prefix on the redisearch engine).
    for (const name of ['Numbat Orders', 'NUMBAT ORDERS', 'numbat orders daily']) assert.ok((await ac('N')).includes(name), name)
    const kafka = { or: [{ and: [{ field: 'platform', value: 'urn:svc:dataPlatform:kafka', condition: 'EQUAL' }] }] }
    assert.equal(await ac('numbat', kafka), ['NUMBAT ORDERS'])
    // A name that starts with the query ranks first even when a later word of it starts with the query too.
    for (const [i, name] of [[5, 'orders_x.orders'], [6, 'b orders']]) {
      assert.is((await propose(svc, 'dataset', ds(`spelled_${i}`), 'datasetProperties', { name: String(name) })).status, 200)
    }
    assert.equal((await svc.call('POST', '/entities?action=autocomplete', { query: 'orders', entity: 'dataset', limit: 1 })).body.value.suggestions, ['orders_x.orders'])
    // ... and however many names have the query as a later word (their entries come first in the suggestion order).
    const later = Array.from({ length: 60 }, (_, i) => `w${String(i).padStart(2, '0')} quoll`)
    for (const [i, name] of [...later, 'quollzzz'].entries()) {
      assert.is((await propose(svc, 'dataset', ds(`later_${i}`), 'datasetProperties', { name })).status, 200)
    }
    assert.equal((await svc.call('POST', '/entities?action=autocomplete', { query: 'quoll', entity: 'dataset', limit: 10 })).body.value.suggestions, ['quollzzz', ...later.slice(0, 9)])
    // Filters the native engine checks on its copies (facet values, names' conditions, negated), and one it does not (urn).
    const where = (...and: unknown[]) => ({ or: [{ and }] })
    const notKafka = { field: 'platform', value: 'kafka', condition: 'EQUAL', negated: true }
    assert.equal(await ac('numbat', where(notKafka)), ['Numbat Orders', 'numbat orders daily'])
    assert.equal(await ac('numbat', where({ field: 'displayName', value: 'DAILY', condition: 'CONTAIN' })), ['numbat orders daily'])
    assert.equal(await ac('numbat', where(notKafka, { field: 'displayName', value: 'numbat orders', condition: 'START_WITH' })), ['Numbat Orders', 'numbat orders daily'])
    assert.equal(await ac('numbat', where({ field: 'urn', value: ds('spelled_3', 'hdfs'), condition: 'EQUAL' })), ['Numbat Orders'])
  })
  cat('a write is searchable as soon as it is acknowledged; changes and hard delete follow', async ({ svc }) => {
    const urn = ds('acknowledged_now')
    assert.is((await propose(svc, 'dataset', urn, 'datasetProperties', { description: 'zebra crossing' })).status, 200)
    assert.equal((await search(svc, { input: 'zebra', entity: 'dataset' })).body.value.entities, [urn])
    assert.is((await propose(svc, 'dataset', urn, 'datasetProperties', { description: 'giraffe' })).status, 200)
    assert.equal((await search(svc, { input: 'zebra', entity: 'dataset' })).body.value.entities, [])
    assert.equal((await search(svc, { input: 'giraffe', entity: 'dataset' })).body.value.entities, [urn])
    await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'DELETE', aspectName: 'datasetKey' } })
    assert.equal((await search(svc, { input: 'giraffe', entity: 'dataset' })).body.value.entities, [])
    assert.equal((await svc.call('POST', '/entities?action=browse', { path: '/prod/hive', entity: 'dataset', start: 0, limit: 100 })).body.value.entities.filter((e: { urn: string }) => e.urn === urn), [])
  })
  cat('a field a write takes away no longer matches; the fields kept still do', async ({ svc }) => {
    const urn = ds('field_taken_away')
    assert.is((await propose(svc, 'dataset', urn, 'datasetProperties', { name: 'quokka', description: 'okapi' })).status, 200)
    assert.equal((await search(svc, { input: 'okapi', entity: 'dataset' })).body.value.entities, [urn])
    assert.is((await propose(svc, 'dataset', urn, 'datasetProperties', { name: 'quokka' })).status, 200)
    assert.equal((await search(svc, { input: 'okapi', entity: 'dataset' })).body.value.entities, [])
    assert.equal((await search(svc, { input: 'quokka', entity: 'dataset' })).body.value.entities, [urn])
    assert.is((await propose(svc, 'dataset', urn, 'datasetProperties', { name: 'quokka', description: 'okapi again' })).status, 200)
    assert.equal((await search(svc, { input: 'okapi', entity: 'dataset' })).body.value.entities, [urn])
  })
  cat('relevance: a name match ranks above a description-only match, whatever the urn order', async ({ svc }) => {
    assert.is((await propose(svc, 'dataset', ds('zeta_widgets'), 'status', { removed: false })).status, 200)
    assert.is((await propose(svc, 'dataset', ds('aaa_other'), 'datasetProperties', { description: 'all about zeta' })).status, 200)
    const res = await search(svc, { input: 'zeta', entity: 'dataset', count: 10 })
    assert.equal(res.body.value.entities, [ds('zeta_widgets'), ds('aaa_other')])
    assert.equal(res.body.value.metadata.matches[1].matchedFields, [{ name: 'description', value: 'all about zeta' }])
  })
  cat('facet counts follow every change (owners changed, soft delete) for a repeated search', async ({ svc }) => {
    const owner = (u: string) => ({ owners: [{ owner: `urn:svc:corpuser:${u}`, type: 'DATAOWNER' }] })
    await propose(svc, 'dataset', ds('cache_a'), 'datasetProperties', { description: 'cachetoken' })
    await propose(svc, 'dataset', ds('cache_b'), 'datasetProperties', { description: 'cachetoken' })
    await propose(svc, 'dataset', ds('cache_a'), 'ownership', owner('alice'))
    await propose(svc, 'dataset', ds('cache_b'), 'ownership', owner('bob'))
    const owners = async () => facet(await search(svc, { input: 'cachetoken', entity: 'dataset' }), 'owners')
    assert.equal(await owners(), { 'urn:svc:corpuser:alice': 1, 'urn:svc:corpuser:bob': 1 })
    assert.equal(await owners(), { 'urn:svc:corpuser:alice': 1, 'urn:svc:corpuser:bob': 1 })
    await propose(svc, 'dataset', ds('cache_b'), 'ownership', owner('alice'))
    assert.equal(await owners(), { 'urn:svc:corpuser:alice': 2 })
    await propose(svc, 'dataset', ds('cache_a'), 'status', { removed: true })
    assert.equal(await owners(), { 'urn:svc:corpuser:alice': 1 })
    await propose(svc, 'dataset', ds('cache_c'), 'datasetProperties', { description: 'cachetoken too' })
    assert.is((await search(svc, { input: 'cachetoken', entity: 'dataset' })).body.value.numEntities, 2)
  })
  cat('one facet value asked alone: total, every page and facets, through owner, tag and platform changes, soft and hard delete', async ({ svc }) => {
    const owner = (u: string) => ({ owners: [{ owner: `urn:svc:corpuser:${u}`, type: 'DATAOWNER' }] })
    const tags = (...t: string[]) => ({ tags: t.map((x) => ({ tag: `urn:svc:tag:${x}` })) })
    for (let i = 0; i < 12; i++) {
      const urn = ds(`sole_${String(i).padStart(2, '0')}`, i % 3 === 0 ? 'kafka' : 'hive')
      assert.is((await propose(svc, 'dataset', urn, 'ownership', owner(i % 2 === 0 ? 'ann' : 'ben'))).status, 200)
      assert.is((await propose(svc, 'dataset', urn, 'globalTags', tags(...(i % 4 === 0 ? ['Gold', 'Pii'] : ['Gold'])))).status, 200)
    }
    // The same question asked alone (`tags:Gold`, `*` + EQUAL) and with a filter that keeps everything (another path).
    const everything = { field: 'platform', value: 'no-such-platform', condition: 'EQUAL', negated: true }
    const compare = async (label: string) => {
      for (const [input, criterion] of [['tags:Gold', undefined], ['tags:urn:svc:tag:Gold', undefined], ['owners:ann', undefined], ['platform:KAFKA', undefined],
        ['*', { field: 'tags', value: 'Pii', condition: 'EQUAL' }], ['*', { field: 'owners', value: 'urn:svc:corpuser:ben', condition: 'EQUAL' }]] as const) {
        const [field, value] = criterion ? [criterion.field, criterion.value] : [input.slice(0, input.indexOf(':')), input.slice(input.indexOf(':') + 1)]
        for (const [start, count] of [[0, 10], [0, 3], [3, 3], [9, 5], [40, 10]]) {
          const alone = await search(svc, { input, entity: 'dataset', start, count, ...(criterion ? { filter: { or: [{ and: [criterion] }] } } : {}) })
          const general = await search(svc, { input: '*', entity: 'dataset', start, count, filter: { or: [{ and: [{ field, value, condition: 'EQUAL' }, everything] }] } })
          assert.is(alone.status, 200)
          assert.equal(alone.body.value.entities, general.body.value.entities, `${label}: ${input} ${value} ${start}+${count}`)
          assert.is(alone.body.value.numEntities, general.body.value.numEntities, `${label}: ${input} ${value} total`)
          assert.equal(alone.body.value.metadata.searchResultMetadatas, general.body.value.metadata.searchResultMetadatas, `${label}: ${input} ${value} facets`)
        }
      }
    }
    await compare('written')
    const gold = async () => (await search(svc, { input: 'tags:Gold', entity: 'dataset', count: 100 })).body.value
    assert.is((await gold()).numEntities, 12)
    assert.equal(facet({ body: { value: await gold() } }, 'owners'), { 'urn:svc:corpuser:ann': 6, 'urn:svc:corpuser:ben': 6 })
    await propose(svc, 'dataset', ds('sole_00', 'kafka'), 'ownership', owner('ben'))
    await propose(svc, 'dataset', ds('sole_04'), 'globalTags', tags('Pii'))
    await propose(svc, 'dataset', ds('sole_01'), 'status', { removed: true })
    await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: ds('sole_02'), changeType: 'DELETE', aspectName: 'datasetKey' } })
    assert.is((await gold()).numEntities, 9)
    assert.equal(facet({ body: { value: await gold() } }, 'owners'), { 'urn:svc:corpuser:ann': 3, 'urn:svc:corpuser:ben': 6 })
    assert.equal(facet({ body: { value: await gold() } }, 'tags'), { 'urn:svc:tag:Gold': 9, 'urn:svc:tag:Pii': 2 })
    await compare('changed')
    assert.equal((await search(svc, { input: 'tags:NoSuchTag', entity: 'dataset' })).body.value.numEntities, 0)
  })
  cat('a urn is found by its id too, on a facet field and on another URN field, however the query is answered', async ({ svc }) => {
    const user = (u: string) => `urn:svc:corpuser:idcheck_${u}`
    const member = (u: string, ...groups: string[]) => propose(svc, 'corpuser', user(u), 'groupMembership', { groups: groups.map((g) => `urn:svc:corpGroup:${g}`) })
    assert.is((await member('a', 'Eng-Team')).status, 200)
    assert.is((await member('b', 'Eng-Team', 'ops')).status, 200)
    assert.is((await member('c', 'ops')).status, 200)
    // A condition on the urn is no facet value: the whole filter is resolved by the script.
    const onUrn = { field: 'urn', value: 'urn:svc:corpuser:idcheck_', condition: 'START_WITH' }
    const found = async (input: string, criteria: Record<string, unknown>[] = []) => {
      const res = await search(svc, { input, entity: 'corpuser', count: 50, ...(criteria.length > 0 ? { filter: { or: [{ and: criteria }] } } : {}) })
      assert.is(res.status, 200, JSON.stringify(res.body))
      return [...res.body.value.entities].sort()
    }
    for (const value of ['eng-team', 'Eng-Team', 'urn:svc:corpGroup:Eng-Team']) {
      assert.equal(await found(`groups:${value}`), [user('a'), user('b')], value)
      assert.equal(await found('*', [{ field: 'groups', value, condition: 'EQUAL' }, onUrn]), [user('a'), user('b')], `${value} with the script`)
      assert.equal(await found('*', [{ field: 'groups', value, condition: 'EQUAL', negated: true }, onUrn]), [user('c')], `NOT ${value}`)
    }
    assert.equal(await found('*', [{ field: 'groups', values: ['eng-team', 'ops'], condition: 'EQUAL' }, onUrn]), [user('a'), user('b'), user('c')])
    // A facet field through the script: the same documents as the value asked alone.
    const gold = (await search(svc, { input: 'tags:gold', entity: 'dataset', count: 100 })).body.value
    const goldHere = await search(svc, { input: '*', entity: 'dataset', count: 100, filter: { or: [{ and: [{ field: 'tags', value: 'gold', condition: 'EQUAL' }, { field: 'urn', value: 'urn:svc:dataset:', condition: 'START_WITH' }] }] } })
    assert.ok(gold.numEntities > 0)
    assert.equal(goldHere.body.value.entities, gold.entities)
    // The id follows the values: once no document has the group, its id names nothing.
    await member('a', 'ops')
    await member('b', 'ops')
    assert.equal(await found('groups:eng-team'), [])
    assert.equal(await found('*', [{ field: 'groups', value: 'eng-team', condition: 'EQUAL' }, onUrn]), [])
    await member('c', 'Eng-Team')
    assert.equal(await found('*', [{ field: 'groups', value: 'eng-team', condition: 'EQUAL' }, onUrn]), [user('c')])
  })
  cat('relevance counts a matched field once, however often the word occurs in it', async ({ svc }) => {
    for (const name of ['a_bilby', 'b_bilby_bilby_bilby']) assert.is((await propose(svc, 'dataset', ds(name), 'datasetProperties', { name, description: 'bilby' })).status, 200)
    assert.equal((await search(svc, { input: 'bilby', entity: 'dataset' })).body.value.entities, [ds('a_bilby'), ds('b_bilby_bilby_bilby')])
    assert.equal((await search(svc, { input: 'bilby', entity: 'dataset', start: 1, count: 1 })).body.value.entities, [ds('b_bilby_bilby_bilby')])
  })
  cat('a value with `|` is found by EQUAL, `field:value` and autocomplete', async ({ svc }) => {
    const urn = ds('piped_value')
    assert.is((await propose(svc, 'dataset', urn, 'datasetProperties', { name: 'LEGACY|KPI' })).status, 200)
    assert.is((await propose(svc, 'dataset', urn, 'globalTags', { tags: [{ tag: 'urn:svc:tag:a|b' }] })).status, 200)
    const found = async (body: Record<string, unknown>) => (await search(svc, { entity: 'dataset', count: 100, ...body })).body.value.entities
    assert.equal(await found({ input: '*', filter: { or: [{ and: [{ field: 'tags', value: 'urn:svc:tag:a|b', condition: 'EQUAL' }] }] } }), [urn])
    assert.equal(await found({ input: 'tags:urn:svc:tag:a|b' }), [urn])
    assert.equal(await found({ input: '*', filter: { or: [{ and: [{ field: 'displayName', value: 'legacy|kpi', condition: 'EQUAL' }] }] } }), [urn])
    assert.equal((await svc.call('POST', '/entities?action=autocomplete', { query: 'legacy|', entity: 'dataset', limit: 10 })).body.value.suggestions, ['LEGACY|KPI'])
  })
  cat('autocomplete: a name equal to the query comes first, however many names have a word starting with it', async ({ svc }) => {
    // More names with a later word starting with the letters than the candidates an engine reads at first (200).
    // Those score higher on the module (rare words), the one equal to the query lower (a word many names have).
    const named = (urnName: string, name: string) => ({ entityType: 'dataset', entityUrn: ds(urnName), changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ name }), contentType: 'application/json' } })
    const proposals = [
      ...Array.from({ length: 230 }, (_, i) => named(`tmqq${i}`, `tmqq${i} tmqq${i + 1}`)),
      ...Array.from({ length: 30 }, (_, i) => named(`x${i}.tmqq`, `q${i} tmqq`)),
      named('v2.tmq', 'tmq'),
      named('v2.tmqq', 'tmqq'),
    ]
    assert.is((await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals })).status, 200)
    for (const query of ['tmq', 'tmqq']) {
      const res = await svc.call('POST', '/entities?action=autocomplete', { query, entity: 'dataset', limit: 5 })
      assert.is(res.status, 200)
      assert.is(res.body.value.suggestions[0], query, JSON.stringify(res.body))
    }
  })
  cat.run()
}
