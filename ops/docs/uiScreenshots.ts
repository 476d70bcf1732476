/**
 * `npm run screenshots:ui`: refreshes the README's pictures of the catalogue UI (ops/docs/screenshots/ui-*.png).
 * Runs a throw-away service (its own redis-server with no persistence, on free ports), loads the upstream demo
 * catalogue, its dataset profiles and a few lineage edges through the API, then photographs the home page, the search
 * page, an entity page, the same page being edited, a lineage graph, column lineage and impact analysis in Debian's
 * Chromium (headless, offline).
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startGateway } from '../../gateway/start.ts'
import { loadConfig } from '../../model/config.ts'
import { createLogger } from '../../model/log.ts'
import { startWorkers } from '../../workers/start.ts'
import { startEmbeddedRedis } from '../embeddedRedis.ts'

const CHROMIUM = '/usr/bin/chromium'
const OUT = fileURLToPath(new URL('./screenshots/', import.meta.url))
const FIXTURES = new URL('../../test/fixtures/upstream/', import.meta.url)
const HDFS = 'urn:svc:dataset:(urn:svc:dataPlatform:hdfs,SampleHdfsDataset,PROD)'
const HIVE = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,SampleHiveDataset,PROD)'
const LOGGING = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,logging_events,PROD)'
const dataset = (platform: string, name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:${platform},${name},PROD)`

const redis = await startEmbeddedRedis()
const config = { ...loadConfig({}), redisUrl: redis.url, port: 0, logLevel: 'silent' as const, partitions: 4 }
const log = createLogger('silent', 'screenshots')
const workers = await startWorkers(config, log)
const gateway = await startGateway(config, log)
const base = gateway.url

async function call(method: string, path: string, body: unknown): Promise<number> {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  await res.arrayBuffer()
  return res.status
}
const propose = (urn: string, aspectName: string, value: unknown) => call('POST', '/aspects?action=ingestProposal', {
  proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { contentType: 'application/json', value: JSON.stringify(value) } },
})

try {
  for (const file of ['bootstrap_mce.requests.json', 'demo-profiles.requests.json']) {
    const requests = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as { method: string; path: string; body: unknown }[]
    for (const r of requests) await call(r.method, r.path, r.body) // records of types the registry does not know are refused
  }
  await propose(HDFS, 'datasetProperties', { description: 'Shipments, first draft' })
  await propose(HDFS, 'datasetProperties', { description: 'Shipments landed daily from the carrier feed, one row per shipment', customProperties: { team: 'logistics' } })
  // A wider lineage picture: two more sources of the hive table and two reports built on it.
  const sources = [dataset('postgres', 'shop.customers'), dataset('kafka', 'clickstream')]
  for (const urn of sources) await propose(urn, 'datasetProperties', { description: 'source table' })
  await propose(HIVE, 'upstreamLineage', { upstreams: [{ dataset: HDFS, type: 'TRANSFORMED' }, ...sources.map((urn) => ({ dataset: urn, type: 'TRANSFORMED' }))] })
  for (const name of ['daily_revenue', 'churn_features']) {
    await propose(dataset('snowflake', name), 'upstreamLineage', { upstreams: [{ dataset: HIVE, type: 'TRANSFORMED' }] })
  }

  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
  mkdirSync(OUT, { recursive: true })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } })
    await page.goto(`${base}/`)
    await page.getByRole('list', { name: 'Recently changed' }).waitFor({ timeout: 30_000 })
    await page.getByRole('list', { name: 'Top owners' }).waitFor({ timeout: 30_000 })
    await page.screenshot({ path: `${OUT}ui-home.png` })

    await page.goto(`${base}/#/search`)
    await page.locator('section.results[aria-busy="false"] .result').first().waitFor({ timeout: 30_000 })
    const box = page.getByRole('combobox', { name: 'Search the catalogue' })
    await box.fill('')
    await box.pressSequentially('fct_', { delay: 40 })
    await page.getByRole('listbox', { name: 'Suggestions' }).waitFor({ state: 'visible', timeout: 10_000 })
    await page.screenshot({ path: `${OUT}ui-search.png` })

    await page.setViewportSize({ width: 1280, height: 1300 })
    await page.goto(`${base}/#/entity/${encodeURIComponent(HDFS)}`)
    await page.locator('.timeseries .chart canvas').first().waitFor({ timeout: 30_000 })
    await page.getByRole('heading', { name: 'Relationships' }).waitFor({ timeout: 10_000 })
    await page.screenshot({ path: `${OUT}ui-entity.png` })

    // being edited: a description in Markdown with its preview, a tag being added, a column open
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${base}/#/entity/${encodeURIComponent(HIVE)}`)
    await page.getByRole('button', { name: 'Edit description' }).click()
    await page.getByRole('textbox', { name: 'Description' }).fill('Hive copy of the **shipments** feed, refreshed hourly.\n\n- owner: logistics\n- runbook: [wiki](https://wiki.example/hive)')
    await page.getByRole('button', { name: 'Preview' }).click()
    await page.getByRole('button', { name: 'Add tag' }).click()
    await page.getByRole('combobox', { name: 'Tag' }).pressSequentially('Leg', { delay: 40 })
    await page.getByRole('listbox', { name: 'Tag suggestions' }).getByRole('option').first().waitFor({ timeout: 10_000 })
    await page.getByRole('button', { name: 'Edit column field_foo' }).click()
    await page.screenshot({ path: `${OUT}ui-editing.png` })

    await page.setViewportSize({ width: 1280, height: 560 })
    await page.goto(`${base}/#/lineage/${encodeURIComponent(HIVE)}?direction=BOTH&hops=3`)
    await page.getByRole('group', { name: /Lineage graph/ }).locator('a.node').nth(4).waitFor({ timeout: 30_000 })
    await page.screenshot({ path: `${OUT}ui-lineage.png` })

    // column lineage (fine-grained edges between the demo's hive tables) and impact analysis
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${base}/#/lineage/${encodeURIComponent(LOGGING)}?direction=BOTH&hops=2`)
    await page.getByRole('group', { name: /Lineage graph/ }).locator('a.node').nth(2).waitFor({ timeout: 30_000 })
    for (const name of ['logging_events', 'fct_users_created', 'fct_users_deleted']) {
      await page.getByRole('button', { name: `Show columns of ${name}` }).click()
      await page.getByRole('list', { name: `Columns of ${name}` }).waitFor({ timeout: 10_000 })
    }
    await page.locator('path.field-edge').first().waitFor({ timeout: 10_000 })
    await page.screenshot({ path: `${OUT}ui-column-lineage.png` })
    await page.goto(`${base}/#/lineage/${encodeURIComponent(HDFS)}?direction=DOWNSTREAM&hops=3`)
    await page.getByRole('group', { name: /Lineage graph/ }).locator('a.node').nth(1).waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Run impact analysis' }).click()
    await page.getByRole('button', { name: 'Export CSV' }).waitFor({ timeout: 10_000 })
    await page.getByRole('heading', { name: 'Impact analysis' }).scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${OUT}ui-impact.png`, fullPage: true })
    process.stdout.write(`wrote ${OUT}ui-home.png, ui-search.png, ui-entity.png, ui-editing.png, ui-lineage.png, ui-column-lineage.png, ui-impact.png\n`)
  } finally {
    await browser.close()
  }
} finally {
  await gateway.close()
  await workers.close()
  await redis.stop()
}
