/**
 * Curation in the UI (issue 23), in Debian's Chromium against a real service on the demo catalogue: a person edits
 * an entity's description (Markdown, preview), tags, glossary terms, owners with their type, documentation links
 * and a column's description and tag, each stored through the public API (checked by reading it back); two people
 * editing the same description do not overwrite each other (the second save is refused and shows the newer text);
 * hostile Markdown is never live; browse counts agree with search for every type; the home page counts, lists
 * recent changes and the most used tags; column lineage, impact analysis with its CSV; sort; a Not found page;
 * with AUTH_ENABLED a read token cannot edit and a write token can. Plus the route pieces: GET /changes/recent and
 * search's `sort` (model/search/sort.ts).
 */
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { lastChanged, sortName, sortUrns } from '../../model/search/sort.ts'
import { browserSuite } from '../helpers/browser.ts'
import { loadDemoCatalogue } from '../helpers/fixtures.ts'
import { startService, tokenFor, type TestService } from '../helpers/service.ts'

const HIVE = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,SampleHiveDataset,PROD)'
const HDFS = 'urn:svc:dataset:(urn:svc:dataPlatform:hdfs,SampleHdfsDataset,PROD)'
const LOGGING = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,logging_events,PROD)'
const enc = encodeURIComponent

const aspectOf = async (svc: TestService, urn: string, aspect: string, headers: Record<string, string> = {}) =>
  (await svc.call('GET', `/entitiesV2/${enc(urn)}?aspects=List(${aspect})`, undefined, headers)).body.aspects?.[aspect]

async function openPage(browser: Browser, width = 1280): Promise<{ page: Page; errors: string[]; dialogs: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, acceptDownloads: true })
  const errors: string[] = []
  const dialogs: string[] = []
  page.on('pageerror', (err) => errors.push(err.message))
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss() })
  return { page, errors, dialogs }
}

const entityPage = async (page: Page, base: string, urn: string, name: string) => {
  await page.goto(`${base}/#/entity/${enc(urn)}`)
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 15_000 })
}
const about = (page: Page) => page.getByRole('region', { name: 'About' })

// ---------------------------------------------------------------------------------------------------------------

const api = suite<{ svc: TestService }>('ui curation: routes')
api.before(async (ctx) => {
  ctx.svc = await startService()
  await loadDemoCatalogue(ctx.svc)
})
api.after(async (ctx) => { await ctx.svc?.close() })

api('GET /changes/recent: the latest change-log entries, newest first, across shards', async ({ svc }) => {
  const proposal = { proposal: { entityType: 'dataset', entityUrn: HIVE, changeType: 'UPSERT', aspectName: 'editableDatasetProperties', aspect: { contentType: 'application/json', value: JSON.stringify({ description: 'recent' }) } } }
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', proposal)).status, 200)
  const res = await svc.call('GET', '/changes/recent?count=5')
  assert.is(res.status, 200)
  assert.is(res.body.changes.length, 5)
  assert.equal({ ...res.body.changes[0], created: undefined }, { urn: HIVE, entityType: 'dataset', aspectName: 'editableDatasetProperties', changeType: 'UPSERT', created: undefined })
  const times = res.body.changes.map((c: any) => c.created.time)
  assert.equal(times, [...times].sort((a: number, b: number) => b - a))
  for (const bad of ['count=0', 'count=201', 'count=x']) assert.is((await svc.call('GET', `/changes/recent?${bad}`)).status, 400, bad)
  assert.ok((await svc.call('GET', '/svc/openapi.json')).body.paths['/changes/recent']?.get)
})

api('search sort: name and lastChanged order the matches; an unknown order is a 400 naming the field', async ({ svc }) => {
  const search = (sort?: string) => svc.call('POST', '/entities?action=search', { input: '*', entity: 'dataset', count: 100, ...(sort ? { sort } : {}) })
  const plain = (await search()).body.value
  const byName = (await search('name')).body.value
  assert.is(byName.numEntities, plain.numEntities)
  assert.equal([...byName.entities].sort(), [...plain.entities].sort())
  const names = (await svc.call('GET', `/entitiesV2?ids=${enc(`List(${byName.entities.map(enc).join(',')})`)}`)).body.results
  const shown = byName.entities.map((u: string) => names[u].aspects.datasetKey.value.name.toLowerCase())
  assert.equal(shown, [...shown].sort())
  const recent = (await search('lastChanged')).body.value.entities
  assert.is(recent[0], HIVE, 'the dataset written last comes first')
  const bad = await search('size')
  assert.is(bad.status, 400)
  assert.match(bad.body.message, /sort/)
  // the pure parts
  assert.is(sortName('urn:x', { name: ['Zed'] }, ['name']), 'zed')
  assert.is(sortName('urn:X', null, ['name']), 'urn:x')
  assert.is(lastChanged([JSON.stringify({ created: { time: 5 } }), 'not json', JSON.stringify({ created: { time: 9 } })]), 9)
  assert.equal(sortUrns(['b', 'a', 'c'], 'lastChanged', (u) => ({ a: 1, b: 1, c: 3 } as Record<string, number>)[u]!), ['c', 'a', 'b'])
})

api.run()

// ---------------------------------------------------------------------------------------------------------------

const { suite: b, test: browserTest } = browserSuite<{ svc: TestService; browser: Browser }>('ui curation: in Chromium, auth off', async (ctx) => {
  ctx.svc = await startService()
  await loadDemoCatalogue(ctx.svc)
})

browserTest('editing: description with preview, tags, terms, owners with type, links, a column', async ({ svc, browser }) => {
  const { page, errors } = await openPage(browser)
  await entityPage(page, svc.url, HIVE, 'SampleHiveDataset')
  // description: Markdown with a preview, stored in editableDatasetProperties
  await about(page).getByRole('button', { name: 'Edit description' }).click()
  const text = page.getByRole('textbox', { name: 'Description' })
  await text.fill('Hive copy of **shipments**, see [the runbook](https://runbook.example/hive)')
  await page.getByRole('button', { name: 'Preview' }).click()
  assert.is(await page.getByLabel('Preview').locator('strong').innerText(), 'shipments')
  await page.getByRole('button', { name: 'Write' }).click()
  await page.getByRole('button', { name: 'Save' }).click()
  await about(page).getByRole('link', { name: 'the runbook' }).waitFor({ timeout: 10_000 })
  assert.is(await about(page).locator('.markdown strong').innerText(), 'shipments')
  assert.is((await aspectOf(svc, HIVE, 'editableDatasetProperties')).value.description, 'Hive copy of **shipments**, see [the runbook](https://runbook.example/hive)')

  // a tag: typed, Enter adds it; suggestions come from the catalogue
  await about(page).getByRole('button', { name: 'Add tag' }).click()
  const tag = page.getByRole('combobox', { name: 'Tag' })
  await tag.pressSequentially('Leg', { delay: 30 })
  await page.getByRole('listbox', { name: 'Tag suggestions' }).getByRole('option', { name: /Legacy/ }).waitFor({ timeout: 10_000 })
  await tag.fill('Reviewed')
  await tag.press('Enter')
  await about(page).getByRole('link', { name: 'Reviewed' }).waitFor({ timeout: 10_000 })
  const tags = (await aspectOf(svc, HIVE, 'globalTags')).value.tags.map((t: any) => t.tag)
  assert.ok(tags.includes('urn:svc:tag:Reviewed') && tags.includes('urn:svc:tag:Legacy'), `tags: ${tags}`)
  await about(page).getByRole('button', { name: 'Remove tag Legacy' }).click()
  await about(page).getByRole('button', { name: 'Remove tag Legacy' }).waitFor({ state: 'detached', timeout: 10_000 })
  assert.equal((await aspectOf(svc, HIVE, 'globalTags')).value.tags.map((t: any) => t.tag), ['urn:svc:tag:Reviewed'])

  // a glossary term, picked from the suggestions with the keyboard
  await about(page).getByRole('button', { name: 'Add term' }).click()
  const term = page.getByRole('combobox', { name: 'Term' })
  await term.pressSequentially('Account', { delay: 30 })
  await page.getByRole('listbox', { name: 'Term suggestions' }).getByRole('option').first().waitFor({ timeout: 10_000 })
  await term.press('ArrowDown')
  await term.press('Enter')
  await about(page).locator('.list-editor.term .chip').first().waitFor({ timeout: 10_000 })
  const terms = (await aspectOf(svc, HIVE, 'glossaryTerms')).value.terms.map((t: any) => t.urn)
  assert.is(terms.length, 1)
  assert.match(terms[0], /^urn:svc:glossaryTerm:/)

  // an owner with a type
  await about(page).getByRole('button', { name: 'Add owner' }).click()
  await page.getByLabel('Owner type').selectOption('DATA_STEWARD')
  await page.getByRole('combobox', { name: 'Owner', exact: true }).fill('alice')
  await page.getByRole('combobox', { name: 'Owner', exact: true }).press('Enter')
  await about(page).getByRole('list', { name: 'Owners' }).getByText('Data steward').waitFor({ timeout: 10_000 })
  const owners = (await aspectOf(svc, HIVE, 'ownership')).value.owners
  assert.ok(owners.some((o: any) => o.owner === 'urn:svc:corpuser:alice' && o.type === 'DATA_STEWARD'), JSON.stringify(owners))
  assert.ok(owners.some((o: any) => o.owner === 'urn:svc:corpuser:jdoe'), 'the other owners are kept')

  // a documentation link: a bad URL is refused in the page, a good one stored
  await about(page).getByRole('button', { name: 'Add link' }).click()
  await page.getByRole('textbox', { name: 'Link', exact: true }).fill('javascript:alert(1)')
  await about(page).getByRole('button', { name: 'Save' }).click()
  await about(page).getByRole('alert').filter({ hasText: 'starts with http' }).waitFor()
  await page.getByRole('textbox', { name: 'Link', exact: true }).fill('https://wiki.example/hive')
  await page.getByRole('textbox', { name: 'Title of the link' }).fill('Hive wiki')
  await about(page).getByRole('button', { name: 'Save' }).click()
  await about(page).getByRole('link', { name: 'Hive wiki' }).waitFor({ timeout: 10_000 })
  const links = (await aspectOf(svc, HIVE, 'institutionalMemory')).value.elements
  assert.ok(links.some((l: any) => l.url === 'https://wiki.example/hive' && l.description === 'Hive wiki'), JSON.stringify(links))
  assert.ok(links.some((l: any) => l.url === 'https://www.svc.com'), 'the existing link is kept')

  // a column: description and a tag, into editableSchemaMetadata
  const schema = page.getByRole('region', { name: /^Schema/ })
  await schema.getByRole('button', { name: 'Edit column field_bar' }).click()
  const column = schema.getByRole('group', { name: 'Edit column field_bar' })
  await column.getByRole('textbox', { name: 'Description' }).fill('True when the _bar_ flag is set')
  await column.getByRole('button', { name: 'Save' }).click()
  await schema.locator('tr[data-field="field_bar"] em', { hasText: 'bar' }).waitFor({ timeout: 10_000 })
  await column.getByRole('button', { name: 'Add tag' }).click()
  await column.getByRole('combobox', { name: 'Tag' }).fill('PII')
  await column.getByRole('combobox', { name: 'Tag' }).press('Enter')
  await schema.locator('tr[data-field="field_bar"]').getByRole('list', { name: 'Tags of field_bar' }).getByText('PII').waitFor({ timeout: 10_000 })
  const info = (await aspectOf(svc, HIVE, 'editableSchemaMetadata')).value.editableSchemaFieldInfo.find((f: any) => f.fieldPath === 'field_bar')
  assert.is(info.description, 'True when the _bar_ flag is set')
  assert.equal(info.globalTags.tags, [{ tag: 'urn:svc:tag:PII' }])

  // every edit is an ordinary write: history and search see it
  const hits = (await svc.call('POST', '/entities?action=search', { input: 'tags:Reviewed', entity: 'dataset' })).body.value.entities
  assert.equal(hits, [HIVE])
  assert.equal(errors, [])
  await page.close()
})

browserTest('two people editing one description: the later save is refused and shows the newer value', async ({ svc, browser }) => {
  const { page, errors } = await openPage(browser)
  await entityPage(page, svc.url, HDFS, 'SampleHdfsDataset')
  await about(page).getByRole('button', { name: 'Edit description' }).click()
  await page.getByRole('textbox', { name: 'Description' }).fill('Mine: shipments by day')
  // meanwhile someone else saves (through the API, as another page would)
  const before = await aspectOf(svc, HDFS, 'editableDatasetProperties')
  const theirs = { proposal: { entityType: 'dataset', entityUrn: HDFS, changeType: 'PATCH', aspectName: 'editableDatasetProperties', aspect: { contentType: 'application/json-patch+json', value: JSON.stringify([{ op: 'add', path: '/description', value: 'Theirs: **carrier** feed' }]) }, headers: { 'If-Version-Match': String(before?.systemMetadata?.version ?? 0) } } }
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', theirs)).status, 200)
  await page.getByRole('button', { name: 'Save' }).click()
  const alert = about(page).getByRole('alert').filter({ hasText: 'Not saved: someone else changed this first' })
  await alert.waitFor({ timeout: 10_000 })
  assert.match(await alert.innerText(), /version 1/)
  assert.is(await alert.locator('.newer strong').innerText(), 'carrier', 'the newer value is shown, rendered')
  assert.is((await aspectOf(svc, HDFS, 'editableDatasetProperties')).value.description, 'Theirs: **carrier** feed', 'nothing was overwritten')
  assert.is(await page.getByRole('textbox', { name: 'Description' }).inputValue(), 'Mine: shipments by day', 'the draft is kept')
  // saving again, knowingly, replaces the newer value
  await page.getByRole('button', { name: 'Save' }).click()
  await about(page).getByText('Mine: shipments by day').waitFor({ timeout: 10_000 })
  assert.is((await aspectOf(svc, HDFS, 'editableDatasetProperties')).value.description, 'Mine: shipments by day')
  assert.equal(errors, [])
  await page.close()
})

browserTest('Markdown: links work, hostile input is never live', async ({ svc, browser }) => {
  const hostile = [
    '**bold** [ok](https://ok.example/a) [mail](mailto:a@b.example)',
    '[js](javascript:alert(1)) [JS](JaVaScRiPt:alert(2)) [data](data:text/html,<script>alert(3)</script>)',
    '<script>alert(4)</script><img src=x onerror="alert(5)"><a href="javascript:alert(6)">raw</a>',
    '<iframe src="https://evil.example"></iframe> <svg onload="alert(7)"></svg> ![img](https://evil.example/x.png)',
  ].join('\n\n')
  const write = { proposal: { entityType: 'dataset', entityUrn: LOGGING, changeType: 'UPSERT', aspectName: 'editableDatasetProperties', aspect: { contentType: 'application/json', value: JSON.stringify({ description: hostile }) } } }
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', write)).status, 200)
  const { page, errors, dialogs } = await openPage(browser)
  const outside: string[] = []
  page.on('request', (req) => { if (!req.url().startsWith(svc.url) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) outside.push(req.url()) })
  await entityPage(page, svc.url, LOGGING, 'logging_events')
  const md = about(page).locator('.markdown')
  await md.locator('strong').waitFor()
  assert.is(await md.getByRole('link', { name: 'ok' }).getAttribute('href'), 'https://ok.example/a')
  assert.is(await md.getByRole('link', { name: 'ok' }).getAttribute('rel'), 'noopener noreferrer')
  assert.is(await md.getByRole('link', { name: 'mail' }).getAttribute('href'), 'mailto:a@b.example')
  const hrefs = await md.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
  assert.equal(hrefs, ['https://ok.example/a', 'mailto:a@b.example'], 'only http(s) and mailto links are live')
  assert.is(await md.locator('script, img, iframe, svg, [onerror], [onload]').count(), 0)
  assert.match(await md.innerText(), /<script>alert\(4\)<\/script>/, 'raw HTML is shown as text')
  await page.waitForTimeout(300)
  assert.equal(dialogs, [])
  assert.equal(outside, [])
  // the same in the editor's preview
  await about(page).getByRole('button', { name: 'Edit description' }).click()
  await page.getByRole('button', { name: 'Preview' }).click()
  assert.is(await page.getByLabel('Preview').locator('script, img, iframe, svg, [onerror], a[href^="javascript"]').count(), 0)
  assert.equal(dialogs, [])
  assert.equal(errors, [])
  await page.close()
})

browserTest('browse agrees with search for every type; types without browse paths list their entities', async ({ svc, browser }) => {
  const registry = (await svc.call('GET', '/registry')).body
  const expected = new Map<string, number>()
  for (const e of registry.entities) expected.set(e.name, (await svc.call('POST', '/entities?action=search', { input: '*', entity: e.name, count: 0 })).body.value.numEntities)
  const { page, errors } = await openPage(browser)
  await page.goto(`${svc.url}/#/browse`)
  const list = page.getByRole('list', { name: 'Entity types' })
  await list.locator('.count').first().waitFor({ timeout: 15_000 })
  const items = await list.locator('li').allInnerTexts()
  assert.is(items.length, registry.entities.length)
  registry.entities.forEach((e: any, i: number) => {
    const count = Number(/(\d+)\s*$/.exec(items[i]!)?.[1])
    assert.is(count, expected.get(e.name), `${e.name}: ${items[i]}`)
  })
  for (const [label, n] of [['User', expected.get('corpuser')], ['Tag', expected.get('tag')], ['Data platform', expected.get('dataPlatform')]] as const) {
    assert.ok(n! > 0, label)
    assert.ok(items.some((t) => t.replace(/\s+/g, ' ').includes(`${label} ${n}`)), `${label} ${n} in ${items}`)
  }
  await list.getByRole('link', { name: 'Data platform', exact: true }).click()
  await page.getByRole('heading', { level: 1, name: /^Data platform/ }).waitFor({ timeout: 10_000 })
  await page.locator('.browse-entities li').first().waitFor({ timeout: 10_000 })
  assert.is(await page.locator('.browse-entities li').count(), expected.get('dataPlatform'))
  assert.equal(errors, [])
  await page.close()
})

browserTest('home page: counts by type and platform, recent changes, most used tags, terms and owners', async ({ svc, browser }) => {
  const tagged = { proposal: { entityType: 'dataset', entityUrn: LOGGING, changeType: 'UPSERT', aspectName: 'globalTags', aspect: { contentType: 'application/json', value: JSON.stringify({ tags: [{ tag: 'urn:svc:tag:HomeTest' }] }) } } }
  assert.is((await svc.call('POST', '/aspects?action=ingestProposal', tagged)).status, 200)
  const datasets = (await svc.call('POST', '/entities?action=search', { input: '*', entity: 'dataset', count: 0 })).body.value.numEntities
  const { page, errors } = await openPage(browser)
  await page.goto(`${svc.url}/`)
  const byType = page.getByRole('list', { name: 'Entities by type' })
  await byType.waitFor({ timeout: 15_000 })
  assert.match((await byType.locator('li', { hasText: /^Dataset/ }).innerText()).replace(/\s+/g, ' '), new RegExp(`^Dataset ${datasets}$`))
  assert.ok((await byType.innerText()).includes('User'), 'human type labels')
  assert.match(await page.getByRole('list', { name: 'By platform' }).innerText(), /hive\s+\d+/)
  const recent = page.getByRole('list', { name: 'Recently changed' })
  await recent.waitFor({ timeout: 10_000 })
  assert.match(await recent.locator('li').first().innerText(), /logging_events[\s\S]*Global tags/)
  assert.match(await page.getByRole('list', { name: 'Most used tags' }).innerText(), /HomeTest\s+1/)
  assert.match(await page.getByRole('list', { name: 'Top owners' }).innerText(), /jdoe\s+\d+/)
  assert.is(await page.locator('.result').count(), 0, 'results stay on the search page')
  // a tag on the home page opens the search filtered by it
  await page.getByRole('list', { name: 'Most used tags' }).getByRole('link', { name: 'HomeTest' }).click()
  await page.locator('section.results[aria-busy="false"]').waitFor({ timeout: 10_000 })
  await page.getByText(/1–1 of 1 results/).waitFor({ timeout: 10_000 })
  // sort options on the search page
  await page.goto(`${svc.url}/#/search?type=dataset`)
  await page.locator('section.results[aria-busy="false"] .result').first().waitFor({ timeout: 10_000 })
  await page.getByLabel('Sort by').selectOption('name')
  await page.waitForFunction(() => location.hash.includes('sort=name'))
  await page.locator('section.results[aria-busy="false"]').waitFor({ timeout: 10_000 })
  const names = (await page.locator('.result .result-name').allInnerTexts()).map((n) => n.toLowerCase())
  assert.equal(names, [...names].sort())
  // an unknown route
  await page.goto(`${svc.url}/#/nowhere/at/all`)
  await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor({ timeout: 10_000 })
  assert.equal(errors, [])
  await page.close()
})

browserTest('lineage: a node\'s columns with column-level edges, one-node expand, impact analysis as CSV', async ({ svc, browser }) => {
  const { page, errors } = await openPage(browser)
  await page.goto(`${svc.url}/#/lineage/${enc(LOGGING)}?direction=DOWNSTREAM&hops=1`)
  const graph = page.getByRole('group', { name: /Lineage graph/ })
  await graph.locator('a.node').nth(1).waitFor({ timeout: 30_000 })
  assert.is(await graph.locator('path.field-edge').count(), 0)
  await page.getByRole('button', { name: 'Show columns of logging_events' }).click()
  await page.getByRole('list', { name: 'Columns of logging_events' }).waitFor({ timeout: 10_000 })
  assert.ok((await page.getByRole('list', { name: 'Columns of logging_events' }).getByRole('listitem').count()) >= 2)
  await page.getByRole('button', { name: 'Show columns of fct_users_created' }).click()
  const edge = graph.locator(`path.field-edge[data-edge="${LOGGING}.event_data>urn:svc:dataset:(urn:svc:dataPlatform:hive,fct_users_created,PROD).user_name"]`)
  await edge.waitFor({ timeout: 10_000 })
  // one node expanded by a hop: fct_users_created's own downstream appears
  const before = await graph.locator('a.node').count()
  await page.getByRole('button', { name: 'Expand fct_users_created' }).click()
  await page.waitForFunction((n) => document.querySelectorAll('svg.lineage-graph a.node').length > n, before, { timeout: 10_000 }).catch(() => undefined)
  assert.ok((await graph.locator('a.node').count()) >= before)
  // impact analysis: everything downstream with its distance, as CSV
  await page.getByRole('button', { name: 'Run impact analysis' }).click()
  const table = page.getByRole('table').filter({ hasText: 'Distance' })
  await table.waitFor({ timeout: 10_000 })
  const rows = await table.locator('tbody tr').allInnerTexts()
  assert.ok(rows.length >= 3, `${rows}`)
  assert.ok(rows.every((r) => /^\d+ hops?/.test(r)), `${rows}`)
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
  assert.is(download.suggestedFilename(), 'impact-logging_events.csv')
  const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n')
  assert.is(csv[0], '"distance","name","type","platform","urn"')
  assert.is(csv.length, rows.length + 1)
  assert.ok(csv.some((line) => line.startsWith('"1","fct_users_created","Dataset","hive",')), csv.join('\n'))
  assert.equal(errors, [])
  await page.close()
})

b.run()

// ---------------------------------------------------------------------------------------------------------------

const { suite: a, test: authTest } = browserSuite<{ svc: TestService; browser: Browser; read: string; write: string }>('ui curation: with AUTH_ENABLED', async (ctx) => {
  ctx.svc = await startService({ authEnabled: true })
  ctx.write = await tokenFor(ctx.svc, 'write', 'editor')
  ctx.read = await tokenFor(ctx.svc, 'read', 'reader')
  await loadDemoCatalogue(ctx.svc, { authorization: `Bearer ${ctx.write}` })
})

authTest('a read token cannot edit (said plainly); a write token edits, with the person as the writer', async ({ svc, browser, read, write }) => {
  const { page, errors } = await openPage(browser)
  /** The token this tab uses (as the token dialog keeps it), then the entity page loaded afresh with it. */
  const useToken = async (token: string) => {
    await page.evaluate((t) => sessionStorage.setItem('svc-catalog.token', t), token)
    await page.goto(`${svc.url}/#/entity/${enc(HIVE)}`)
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'SampleHiveDataset' }).waitFor({ timeout: 15_000 })
  }
  await page.goto(`${svc.url}/`)
  await useToken(read)
  await about(page).getByRole('button', { name: 'Add tag' }).click()
  await page.getByRole('combobox', { name: 'Tag' }).fill('Blocked')
  await page.getByRole('combobox', { name: 'Tag' }).press('Enter')
  await about(page).getByRole('alert').filter({ hasText: /403/ }).waitFor({ timeout: 10_000 })
  assert.match(await about(page).getByRole('alert').filter({ hasText: /403/ }).innerText(), /ask whoever runs the catalogue for one that does/)
  const auth = { authorization: `Bearer ${write}` }
  assert.not.ok(((await aspectOf(svc, HIVE, 'globalTags', auth))?.value.tags ?? []).some((t: any) => t.tag === 'urn:svc:tag:Blocked'))

  await useToken(write)
  await about(page).getByRole('button', { name: 'Edit description' }).click()
  await page.getByRole('textbox', { name: 'Description' }).fill('Edited with a write token')
  await page.getByRole('button', { name: 'Save' }).click()
  await about(page).getByText('Edited with a write token').waitFor({ timeout: 10_000 })
  const stored = await aspectOf(svc, HIVE, 'editableDatasetProperties', auth)
  assert.is(stored.value.description, 'Edited with a write token')
  assert.match(stored.created.actor, /editor/, `written as the token's person (${stored.created.actor})`)
  assert.equal(errors, [])
  await page.close()
})

a.run()
