/**
 * The catalogue UI (`GET /`) and the read routes it needs (`/registry`, `/versions/<urn>`, `/lineage/graph`):
 * the routes answer and are documented; in Debian's Chromium (headless, offline), on the upstream demo catalogue, a
 * person searches with suggestions, narrows by a facet, opens an entity (schema table, history with a diff), follows
 * lineage to an upstream node, browses two levels down, sees a soft-deleted entity marked; with AUTH_ENABLED the page
 * asks for a token and never puts it in a URL.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { browserSuite } from '../helpers/browser.ts'
import { loadDemoCatalogue } from '../helpers/fixtures.ts'
import { startService, tokenFor, type TestService } from '../helpers/service.ts'

const KAFKA = 'urn:svc:dataset:(urn:svc:dataPlatform:kafka,SampleKafkaDataset,PROD)'
const HDFS = 'urn:svc:dataset:(urn:svc:dataPlatform:hdfs,SampleHdfsDataset,PROD)'
const HIVE = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,SampleHiveDataset,PROD)'
const GONE = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,ui_retired_orders,PROD)'
const enc = encodeURIComponent

const proposal = (urn: string, aspectName: string, value: unknown) => ({
  proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { contentType: 'application/json', value: JSON.stringify(value) } },
})

/** The demo catalogue and its profiles, a second version of one description, and a soft-deleted dataset. */
async function loadCatalogue(svc: TestService, headers: Record<string, string> = {}): Promise<void> {
  await loadDemoCatalogue(svc, headers)
  for (const description of ['Shipments, first draft', 'Shipments landed daily from the carrier feed']) {
    assert.is((await svc.call('POST', '/aspects?action=ingestProposal', proposal(HDFS, 'datasetProperties', { description }), headers)).status, 200)
  }
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', proposal(GONE, 'datasetProperties', { description: 'orders of the old shop' }), headers)).status, 200)
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', proposal(GONE, 'status', { removed: true }), headers)).status, 200)
}

const t = suite<{ svc: TestService }>('ui: read routes and files')
t.before(async (ctx) => {
  ctx.svc = await startService()
  await loadCatalogue(ctx.svc)
})
t.after(async (ctx) => { await ctx.svc?.close() })

t('GET /registry: entity types with aspects, search fields and relationships', async ({ svc }) => {
  const res = await svc.call('GET', '/registry')
  assert.is(res.status, 200)
  const dataset = res.body.entities.find((e: any) => e.name === 'dataset')
  assert.is(dataset.keyAspect, 'datasetKey')
  assert.ok(dataset.aspects.some((a: any) => a.name === 'datasetProfile' && a.timeseries))
  assert.ok(dataset.aspects.some((a: any) => a.name === 'schemaMetadata' && !a.timeseries))
  assert.ok(dataset.searchFields.some((f: any) => f.name === 'platform' && f.facet))
  assert.ok(dataset.searchFields.some((f: any) => f.autocomplete))
  assert.ok(dataset.relationships.outgoing.includes('DownstreamOf'))
  assert.ok(res.body.relationships.includes('OwnedBy'))
  assert.is(res.body.urnPrefix, 'urn:svc:')
})

t('GET /versions/<urn>: every version of an aspect, newest first', async ({ svc }) => {
  const res = await svc.call('GET', `/versions/${enc(HDFS)}?aspect=datasetProperties`)
  assert.is(res.status, 200)
  const { total, versions } = res.body
  assert.ok(total >= 2)
  assert.equal(versions.map((v: any) => v.version), [0, ...Array.from({ length: total - 1 }, (_, i) => total - 1 - i)])
  assert.is(versions[0].value.description, 'Shipments landed daily from the carrier feed')
  assert.is(versions[1].value.description, 'Shipments, first draft')
  assert.ok(versions.every((v: any) => v.created.time > 0 && v.created.actor))
  assert.is((await svc.call('GET', `/versions/${enc(HDFS)}?aspect=datasetProfile`)).status, 400)
  assert.is((await svc.call('GET', `/versions/${enc(HDFS)}?aspect=nope`)).status, 400)
  assert.is((await svc.call('GET', `/versions/${enc(HDFS)}`)).status, 400)
  const never = await svc.call('GET', `/versions/${enc('urn:svc:dataset:(urn:svc:dataPlatform:hive,never_written,PROD)')}?aspect=ownership`)
  assert.equal([never.status, never.body.total, never.body.versions], [200, 0, []])
})

t('GET /lineage/graph: nodes with hops and edges from derived to source', async ({ svc }) => {
  const up = await svc.call('GET', `/lineage/graph?urn=${enc(HIVE)}&direction=UPSTREAM&maxHops=2`)
  assert.is(up.status, 200)
  assert.equal(up.body.nodes, [{ urn: HDFS, hops: 1 }, { urn: KAFKA, hops: 2 }])
  assert.equal(up.body.edges, [{ from: HIVE, to: HDFS, type: 'DownstreamOf' }, { from: HDFS, to: KAFKA, type: 'DownstreamOf' }])
  const down = await svc.call('GET', `/lineage/graph?urn=${enc(KAFKA)}&direction=DOWNSTREAM&maxHops=1`)
  assert.equal(down.body.nodes, [{ urn: HDFS, hops: 1 }])
  assert.equal(down.body.edges, [{ from: HDFS, to: KAFKA, type: 'DownstreamOf' }])
  assert.is((await svc.call('GET', `/lineage/graph?urn=${enc(KAFKA)}&direction=SIDEWAYS`)).status, 400)
  assert.is((await svc.call('GET', `/lineage/graph?urn=${enc(KAFKA)}&direction=UPSTREAM&types=Nope`)).status, 400)
})

t('the new routes are in the OpenAPI document', async ({ svc }) => {
  const doc = (await svc.call('GET', '/svc/openapi.json')).body
  for (const path of ['/registry', '/versions/{urn}', '/lineage/graph']) assert.ok(doc.paths[path]?.get?.responses?.[200]?.content, path)
  assert.not.ok(doc.paths['/'], 'the page itself is not an API route')
})

t('GET / serves the page; its files come from the service, nothing else is referenced', async ({ svc }) => {
  const page = await fetch(`${svc.url}/`)
  assert.is(page.status, 200)
  assert.match(page.headers.get('content-type') ?? '', /text\/html/)
  const text = await page.text()
  assert.not.match(text, /https?:\/\//)
  assert.not.match(text, /(src|href)="\//, 'relative URLs only (works behind a proxy prefix)')
  for (const [file, type] of [['app/app.js', /javascript/], ['app/style.css', /text\/css/], ['vendor/preact/dist/preact.mjs', /javascript/],
    ['vendor/preact/hooks/dist/hooks.mjs', /javascript/], ['vendor/htm/dist/htm.mjs', /javascript/], ['vendor/elkjs/lib/elk.bundled.js', /javascript/],
    ['vendor/uplot/dist/uPlot.esm.js', /javascript/], ['vendor/diff/libesm/index.js', /javascript/]] as const) {
    const res = await fetch(`${svc.url}/svc/ui/${file}`)
    assert.is(res.status, 200, file)
    assert.match(res.headers.get('content-type') ?? '', type)
    await res.arrayBuffer()
  }
  for (const bad of ['app/../../server.ts', 'app/..%2F..%2Fserver.ts', 'vendor/preact/package.json', 'vendor/express/index.js', 'vendor/preact/../../package.json', 'other/x.js']) {
    const res = await fetch(`${svc.url}/svc/ui/${bad}`)
    assert.is(res.status, 404, bad)
    await res.arrayBuffer()
  }
})

t.run()

// ---------------------------------------------------------------------------------------------------------------

const { suite: b, test: browserTest } = browserSuite<{ svc: TestService; browser: Browser }>('ui: in Chromium', async (ctx) => {
  ctx.svc = await startService()
  await loadCatalogue(ctx.svc)
})

/** A page that records every request leaving the service and every script error. */
async function openPage(browser: Browser, base: string, width = 1280): Promise<{ page: Page; outside: string[]; errors: string[]; urls: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  const outside: string[] = []
  const errors: string[] = []
  const urls: string[] = []
  page.on('request', (req) => { urls.push(req.url()); if (!req.url().startsWith(base) && !req.url().startsWith('data:')) outside.push(req.url()) })
  page.on('pageerror', (err) => errors.push(err.message))
  return { page, outside, errors, urls }
}

/** Waits until the results shown answer the search in the URL. */
const settled = (page: Page) => page.locator('section.results[aria-busy="false"]').waitFor({ timeout: 10_000 })

browserTest('search: suggestions while typing, results across types, a facet narrows them', async ({ svc, browser }) => {
  const { page, outside, errors } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/#/search`)
  await page.getByText(/of \d+ results/).waitFor({ timeout: 30_000 })
  // Every type is searched: datasets, charts, people... with the entity type facet counting them.
  const types = await page.locator('fieldset.facet', { hasText: 'Entity type' }).innerText()
  for (const type of ['Dataset', 'Chart', 'Dashboard', 'User', 'Tag', 'Glossary term']) assert.ok(types.includes(type), `${type} in the type facet`)

  const box = page.getByRole('combobox', { name: 'Search the catalogue' })
  await box.pressSequentially('SampleH', { delay: 30 })
  const suggestions = page.getByRole('listbox', { name: 'Suggestions' })
  await suggestions.waitFor({ state: 'visible', timeout: 10_000 })
  const options = await suggestions.getByRole('option').allInnerTexts()
  assert.ok(options.some((o) => o.includes('SampleHdfsDataset')), `suggestions: ${options}`)
  assert.ok(options.some((o) => o.includes('SampleHiveDataset')), `suggestions: ${options}`)
  await box.press('ArrowDown')
  await box.press('Escape')
  await box.fill('sample')
  await box.press('Enter')
  await settled(page)
  await page.getByText(/of \d+ results for “sample”/).waitFor({ timeout: 10_000 })
  const before = await page.locator('.result').count()
  assert.ok(before >= 3, `${before} results for "sample"`)

  await page.getByRole('checkbox', { name: /^hive/ }).check()
  await page.waitForFunction(() => location.hash.includes('f=platform'))
  await settled(page)
  await page.getByText(/1–1 of 1 results/).waitFor({ timeout: 10_000 })
  const names = await page.locator('.result .result-name').allInnerTexts()
  assert.equal(names, ['SampleHiveDataset'])
  assert.ok(await page.getByRole('checkbox', { name: /^hive/ }).isChecked())
  // the filter conditions stay reachable: one more condition through the form
  await page.getByText('Filter conditions').click()
  await page.getByLabel('Field').selectOption('origin')
  await page.getByLabel('Condition').selectOption('EQUAL')
  await page.getByLabel('Value', { exact: true }).fill('DEV')
  await page.getByRole('button', { name: 'Add condition' }).click()
  await page.getByText('No results').waitFor({ timeout: 10_000 })
  await page.getByRole('button', { name: /Remove filter origin/ }).click()
  await page.getByText(/1–1 of 1 results/).waitFor({ timeout: 10_000 })
  assert.equal(outside, [])
  assert.equal(errors, [])
  await page.close()
})

browserTest('entity page: summary, schema table, aspects readable, raw JSON and history with a diff', async ({ svc, browser }) => {
  const { page, outside, errors } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/#/search?q=SampleHdfsDataset`)
  await page.getByRole('link', { name: 'SampleHdfsDataset' }).first().click()
  await page.getByRole('heading', { level: 1, name: 'SampleHdfsDataset' }).waitFor({ timeout: 10_000 })
  assert.ok(page.url().includes(`#/entity/${enc(HDFS)}`))
  const schema = page.getByRole('region', { name: /^Schema \d+ fields/ }).getByRole('table')
  await schema.waitFor()
  const headers = await schema.getByRole('columnheader').allInnerTexts()
  assert.equal(headers, ['Field', 'Type', 'Nullable', 'Key', 'Description', 'Tags', 'Glossary terms', 'Edit'])
  assert.ok((await schema.getByRole('row').count()) >= 5)
  assert.ok((await schema.innerText()).includes('shipment_info'))
  const about = await page.locator('.summary').innerText()
  assert.ok(about.includes('Shipments landed daily from the carrier feed'), about)
  assert.ok(about.includes('jdoe') || about.includes('John Doe'), 'owners shown')
  // relationships are links
  await page.getByRole('heading', { name: 'Relationships' }).waitFor()
  assert.ok(await page.locator('[data-relationship="OUTGOING DownstreamOf"] a', { hasText: 'SampleKafkaDataset' }).isVisible())
  // timeseries as a chart
  await page.locator('.timeseries[data-aspect="datasetProfile"] .chart canvas').first().waitFor({ timeout: 10_000 })

  const properties = page.locator('section.aspect[data-aspect="datasetProperties"]')
  assert.not.ok(await properties.locator('pre.raw').isVisible(), 'readable by default')
  await properties.getByRole('button', { name: 'Raw JSON' }).click()
  assert.match(await properties.locator('pre.raw').innerText(), /"description": "Shipments landed daily/)
  await properties.getByRole('button', { name: 'History' }).click()
  await properties.locator('pre.diff').waitFor({ timeout: 10_000 })
  assert.match(await properties.locator('caption').innerText(), /^\d+ versions/)
  assert.match(await properties.locator('pre.diff del').innerText(), /Shipments, first draft/)
  assert.match(await properties.locator('pre.diff ins').innerText(), /Shipments landed daily/)
  assert.equal(outside, [])
  assert.equal(errors, [])
  await page.close()
})

browserTest('lineage: a graph laid out by elkjs; clicking an upstream node opens its page', async ({ svc, browser }) => {
  const { page, outside, errors } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/#/entity/${enc(HIVE)}`)
  await page.getByRole('link', { name: 'Lineage', exact: true }).click()
  const graph = page.getByRole('group', { name: /Lineage graph/ })
  await graph.waitFor({ timeout: 30_000 })
  const nodes = graph.locator('a.node')
  assert.ok((await nodes.count()) >= 3)
  assert.ok(await graph.locator('path.edge').count() >= 2)
  await page.getByRole('radio', { name: 'Upstream' }).check()
  await page.getByRole('spinbutton', { name: 'Hops' }).fill('1')
  await page.getByRole('spinbutton', { name: 'Hops' }).press('Enter')
  await page.waitForFunction(() => location.hash.includes('direction=UPSTREAM') && location.hash.includes('hops=1'))
  await page.getByText('1 related entity').waitFor({ timeout: 10_000 })
  const upstream = graph.locator(`a.node[data-urn="${HDFS}"]`)
  await upstream.waitFor({ timeout: 10_000 })
  await upstream.click()
  await page.getByRole('heading', { level: 1, name: 'SampleHdfsDataset' }).waitFor({ timeout: 10_000 })
  assert.ok(page.url().endsWith(`#/entity/${enc(HDFS)}`))
  assert.equal(outside, [])
  assert.equal(errors, [])
  await page.close()
})

browserTest('lineage: a level with many entities collapses into "+N more", which expands', async ({ svc, browser }) => {
  const hub = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,ui_hub,PROD)'
  const sources = Array.from({ length: 20 }, (_, i) => `urn:svc:dataset:(urn:svc:dataPlatform:kafka,ui_src_${String(i).padStart(2, '0')},PROD)`)
  const res = await svc.call('POST', '/aspects?action=ingestProposal', proposal(hub, 'upstreamLineage', { upstreams: sources.map((dataset) => ({ dataset, type: 'TRANSFORMED' })) }))
  assert.is(res.status, 200)
  const { page, errors } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/#/lineage/${enc(hub)}?direction=UPSTREAM&hops=1`)
  const graph = page.getByRole('group', { name: /Lineage graph/ })
  const more = graph.getByRole('button', { name: 'Show 8 more at hop 1' })
  await more.waitFor({ timeout: 30_000 })
  assert.is(await graph.locator('a.node').count(), 13, 'the entity and 12 of its 20 sources')
  assert.ok(await page.getByText('20 related entities').isVisible())
  await more.focus()
  await page.keyboard.press('Enter')
  await graph.locator(`a.node[data-urn="${sources[19]}"]`).waitFor({ timeout: 10_000 })
  assert.is(await graph.locator('a.node').count(), 21)
  assert.is(await graph.locator('.node.more').count(), 0)
  assert.equal(errors, [])
  await page.close()
})

browserTest('browse: types, then folders with counts, two levels down to the entities', async ({ svc, browser }) => {
  const { page, errors } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/`)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Browse' }).click()
  // The home page's results stay on screen until the browse page renders; scope each click to the list it belongs to.
  await page.getByRole('list', { name: 'Entity types' }).getByRole('link', { name: 'Dataset', exact: true }).click()
  await page.getByRole('list', { name: 'Folders' }).getByRole('link', { name: 'prod', exact: true }).click()
  await page.getByRole('heading', { name: /Dataset \/prod$/ }).waitFor({ timeout: 10_000 })
  const hive = page.locator('.folders li', { hasText: 'hive' })
  assert.match(await hive.innerText(), /hive\s+\d+/)
  await hive.getByRole('link').click()
  await page.getByRole('heading', { name: /Dataset \/prod\/hive$/ }).waitFor({ timeout: 10_000 })
  await page.getByRole('heading', { name: 'Entities here' }).waitFor()
  const listed = await page.locator('.browse-entities a').allInnerTexts()
  assert.ok(listed.includes('SampleHiveDataset'), `listed: ${listed}`)
  assert.not.ok(listed.includes('ui_retired_orders'), 'soft-deleted entities are not browsed')
  await page.locator('.browse-entities').getByRole('link', { name: 'SampleHiveDataset', exact: true }).click()
  await page.getByRole('heading', { level: 1, name: 'SampleHiveDataset' }).waitFor({ timeout: 10_000 })
  assert.equal(errors, [])
  await page.close()
})

browserTest('a soft-deleted entity is marked; a narrow window still reads without sideways scrolling', async ({ svc, browser }) => {
  const { page, errors } = await openPage(browser, svc.url, 390)
  await page.goto(`${svc.url}/#/entity/${enc(GONE)}`)
  const banner = page.getByRole('status').filter({ hasText: 'Soft-deleted' })
  await banner.waitFor({ timeout: 10_000 })
  assert.ok(await page.locator('h1 .badge.removed').isVisible())
  for (const hash of [`#/entity/${enc(GONE)}`, '#/search?q=sample', `#/entity/${enc(HDFS)}`]) {
    await page.goto(`${svc.url}/${hash}`)
    await page.locator('main h1, main .result').first().waitFor({ timeout: 10_000 })
    await page.waitForTimeout(300)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    assert.ok(overflow <= 1, `${hash}: ${overflow}px sideways at 390px`)
  }
  assert.equal(errors, [])
  await page.close()
})

browserTest('keyboard: the search box, suggestions and results are reachable without a mouse', async ({ svc, browser }) => {
  const { page, errors } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/#/search`)
  await page.getByText(/of \d+ results/).waitFor({ timeout: 30_000 })
  await page.keyboard.press('Tab')
  for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.id === 'q')); i++) await page.keyboard.press('Tab')
  assert.ok(await page.evaluate(() => document.activeElement?.id === 'q'), 'the search box takes the focus by Tab')
  await page.keyboard.type('SampleK', { delay: 30 })
  // The list for the whole text: one for an earlier one ('Sample': three datasets, Hdfs first) may show first when
  // keystrokes arrive slowly (CI caught ArrowDown and Enter picking from it).
  await page.locator('#suggestion-0', { hasText: 'SampleKafkaDataset' }).waitFor({ timeout: 10_000 })
  await page.keyboard.press('ArrowDown')
  assert.is(await page.getByRole('combobox', { name: 'Search the catalogue' }).getAttribute('aria-activedescendant'), 'suggestion-0')
  await page.keyboard.press('Enter')
  await page.getByText(/of 1 results/).waitFor({ timeout: 10_000 })
  const link = page.locator('.result-name', { hasText: 'SampleKafkaDataset' })
  await link.focus()
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 1, name: 'SampleKafkaDataset' }).waitFor({ timeout: 10_000 })
  assert.equal(errors, [])
  await page.close()
})

b.run()

// ---------------------------------------------------------------------------------------------------------------

const MODEL = 'urn:svc:forecastModel:churn_predictor'
const { suite: r, test: registryTest } = browserSuite<{ svc: TestService; browser: Browser }>('ui: an entity type from a registry file, no UI change', async (ctx) => {
  const file = join(mkdtempSync(join(tmpdir(), 'ui-registry-')), 'registry.json')
  writeFileSync(file, JSON.stringify({
    aspects: [
      { name: 'forecastModelKey', recordName: 'com.acme.ForecastModelKey', schema: { type: 'object', properties: { name: { type: 'string', minLength: 1, searchable: { field: 'name', type: 'TEXT', boost: 10, autocomplete: true } } }, required: ['name'] } },
      { name: 'forecastModelProperties', recordName: 'com.acme.ForecastModelProperties', schema: { type: 'object', properties: {
        description: { type: 'string', searchable: { field: 'description', type: 'TEXT' } },
        framework: { type: 'string', searchable: { field: 'framework', type: 'KEYWORD', facet: true } },
        hyperParameters: { type: 'object', patternProperties: { '^.*$': { type: 'string' } } },
      } } },
      { name: 'forecastModelMetrics', recordName: 'com.acme.ForecastModelMetrics', timeseries: true, schema: { type: 'object', properties: {
        timestampMillis: { type: 'integer', minimum: 0 }, accuracy: { type: 'number' },
      }, required: ['timestampMillis'] } },
    ],
    entities: [{ name: 'forecastModel', keyAspect: 'forecastModelKey', keyFields: ['name'], aspects: ['forecastModelProperties', 'forecastModelMetrics', 'ownership', 'status'] }],
  }))
  ctx.svc = await startService({ registryFile: file })
  const write = (aspectName: string, value: unknown) => ctx.svc.call('POST', '/aspects?action=ingestProposal', {
    proposal: { entityType: 'forecastModel', entityUrn: MODEL, changeType: 'UPSERT', aspectName, aspect: { contentType: 'application/json', value: JSON.stringify(value) } },
  })
  assert.is((await write('forecastModelProperties', { description: 'Predicts which customers leave', framework: 'xgboost', hyperParameters: { depth: '6' } })).status, 200)
  assert.is((await write('ownership', { owners: [{ owner: 'urn:svc:corpuser:jdoe', type: 'DATAOWNER' }] })).status, 200)
  for (const [day, accuracy] of [[1, 0.81], [2, 0.83], [3, 0.86]] as const) {
    assert.is((await write('forecastModelMetrics', { timestampMillis: Date.UTC(2026, 0, day), accuracy })).status, 200)
  }
})

registryTest('search, facet, suggestion, entity page and chart for the new type', async ({ svc, browser }) => {
  const { page, errors } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/#/search`)
  await settled(page)
  assert.ok(await page.locator('fieldset.facet', { hasText: 'Entity type' }).getByText('Forecast model').isVisible())
  await page.getByRole('combobox', { name: 'Search the catalogue' }).pressSequentially('churn', { delay: 30 })
  await page.getByRole('option', { name: /churn_predictor/ }).click()
  await settled(page)
  await page.getByRole('checkbox', { name: /^xgboost/ }).check()
  await page.waitForFunction(() => location.hash.includes('framework'))
  await settled(page)
  assert.equal(await page.locator('.result .result-name').allInnerTexts(), ['churn_predictor'])
  assert.ok((await page.locator('.result').innerText()).includes('Predicts which customers leave'))
  await page.getByRole('link', { name: 'churn_predictor' }).click()
  await page.getByRole('heading', { level: 1, name: 'churn_predictor' }).waitFor({ timeout: 10_000 })
  const properties = page.locator('section.aspect[data-aspect="forecastModelProperties"]')
  assert.match(await properties.innerText(), /Framework\s+xgboost/)
  assert.match(await properties.innerText(), /Depth\s+6/)
  await page.locator('.timeseries[data-aspect="forecastModelMetrics"] .chart canvas').waitFor({ timeout: 10_000 })
  assert.ok(await page.getByRole('img', { name: /Accuracy over time, 3 points/ }).isVisible())
  assert.equal(errors, [])
  await page.close()
})

r.run()

// ---------------------------------------------------------------------------------------------------------------

const { suite: a, test: authTest } = browserSuite<{ svc: TestService; browser: Browser; read: string }>('ui: with AUTH_ENABLED', async (ctx) => {
  ctx.svc = await startService({ authEnabled: true })
  const write = await tokenFor(ctx.svc, 'write')
  ctx.read = await tokenFor(ctx.svc, 'read')
  await loadCatalogue(ctx.svc, { authorization: `Bearer ${write}` })
})

authTest('the page asks for a token, says when it is refused, keeps it for the session, never in a URL', async ({ svc, browser, read }) => {
  const { page, errors, urls } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/#/search`)
  const dialog = page.getByRole('dialog', { name: 'Access token' })
  await dialog.waitFor({ timeout: 10_000 })
  // plain words: what a token is and where to get one, no HTTP terms
  assert.match(await dialog.innerText(), /ask whoever runs the catalogue/)
  assert.not.match(await dialog.innerText(), /Authorization|Bearer|header|AUTH_ENABLED|401/)
  await dialog.getByLabel('Token').fill('not-a-token')
  await dialog.getByRole('button', { name: 'Use this token' }).click()
  await dialog.getByRole('alert').filter({ hasText: /not accepted: it is unknown, revoked or expired/ }).waitFor({ timeout: 10_000 })
  assert.not.match(await dialog.innerText(), /Authorization|Bearer|header/)
  await dialog.getByLabel('Token').fill(read)
  await dialog.getByRole('button', { name: 'Use this token' }).click()
  await page.getByText(/of \d+ results/).waitFor({ timeout: 10_000 })
  assert.not.ok(await dialog.isVisible())
  assert.is(await page.evaluate(() => sessionStorage.getItem('svc-catalog.token')), read)
  // the token survives a reload (same session) and opens an entity page
  await page.goto(`${svc.url}/#/entity/${enc(HDFS)}`)
  await page.getByRole('heading', { level: 1, name: 'SampleHdfsDataset' }).waitFor({ timeout: 10_000 })
  assert.ok(urls.length > 10)
  for (const url of urls) assert.not.ok(url.includes(read) || url.includes('not-a-token'), `token in ${url}`)
  assert.not.ok(page.url().includes(read))
  assert.equal(errors, [])
  await page.close()
})

authTest('a fresh browser session has no token', async ({ svc, browser }) => {
  const { page } = await openPage(browser, svc.url)
  await page.goto(`${svc.url}/#/browse`)
  await page.getByRole('dialog', { name: 'Access token' }).waitFor({ timeout: 10_000 })
  assert.is(await page.evaluate(() => sessionStorage.getItem('svc-catalog.token')), null)
  await page.close()
})

a.run()
