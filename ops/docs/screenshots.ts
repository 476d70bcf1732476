/**
 * `npm run screenshots`: refreshes the README's pictures (ops/docs/screenshots/docs.png and dashboard.png). It
 * starts a throw-away service of its own (a redis-server keeping nothing, workers, gateway and dashboard on free
 * ports), writes a few datasets and one job that fails, and photographs the interactive docs after a search and
 * the dashboard's failed-job view with headless Chromium (/usr/bin/chromium). Tests never write these files.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../../model/config.ts'
import { queueName } from '../../model/jobs.ts'
import { openQueue } from '../../model/services/writeQueues.ts'
import { createLogger } from '../../model/log.ts'
import { startGateway } from '../../gateway/start.ts'
import { startWorkers } from '../../workers/start.ts'
import { startDashboard } from '../dashboard/start.ts'
import { startEmbeddedRedis } from '../embeddedRedis.ts'
import { launchChromium } from './chromium.ts'

const OUT = fileURLToPath(new URL('./screenshots/', import.meta.url))
const DATASETS = ['orders', 'customers', 'payments'].map((name) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`)

const redis = await startEmbeddedRedis()
const config = { ...loadConfig({}), redisUrl: redis.url, port: 0, dashboardPort: 0, logLevel: 'silent' as const, searchEngine: 'native' as const }
const log = createLogger('silent', 'screenshots')
const workers = await startWorkers(config, log)
const gateway = await startGateway(config, log)
const dashboard = await startDashboard(config, log)
const browser = await launchChromium()
try {
  for (const urn of DATASETS) {
    const snapshot = { urn, aspects: [{ 'com.svc.dataset.DatasetProperties': { name: urn.split(',')[1], description: 'written by npm run screenshots' } }] }
    const res = await fetch(`${gateway.url}/entities?action=ingest`, { method: 'POST', body: JSON.stringify({ entity: { value: { 'com.svc.metadata.snapshot.DatasetSnapshot': snapshot } } }) })
    if (res.status !== 200) throw new Error(`writing ${urn}: ${res.status} ${await res.text()}`)
  }
  // A job no worker can apply (its urn does not parse), so the dashboard has a failed job to show.
  const queue = openQueue(gateway.model.redis, gateway.model.keys, 1)
  await queue.add('write', { items: [{ op: 'upsert', urn: 'not-a-urn', entityType: 'dataset', aspects: [] }], actor: 'urn:svc:corpuser:screenshots', time: Date.now() }, { jobId: 'broken-job' })
  for (let i = 0; i < 100 && (await queue.getFailedCount()) === 0; i++) await new Promise((r) => setTimeout(r, 50))
  await queue.close()
  mkdirSync(OUT, { recursive: true })

  const docs = await browser.newPage({ viewport: { width: 1280, height: 1400 } })
  await docs.goto(`${gateway.url}/svc/docs`)
  const search = docs.locator('.opblock-summary-path[data-path="/entities?action=search"]')
  await search.waitFor({ state: 'visible', timeout: 30_000 })
  await search.click()
  const op = docs.locator('.opblock', { has: search })
  const tryIt = op.locator('button.try-out__btn', { hasText: 'Try it out' })
  if (await tryIt.isVisible()) await tryIt.click()
  await op.locator('textarea.body-param__text').fill('{"input":"*","entity":"dataset","start":0,"count":10}')
  await op.locator('button.execute').click()
  await op.locator('.live-responses-table .response .response-col_status').waitFor({ state: 'visible', timeout: 30_000 })
  await docs.screenshot({ path: `${OUT}docs.png` })

  const board = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await board.goto(`${dashboard.url}/queue/${queueName(1)}?status=failed`)
  await board.getByText(/does not parse|invalid urn|not-a-urn/i).first().waitFor({ timeout: 30_000 })
  await board.screenshot({ path: `${OUT}dashboard.png` })
  process.stdout.write(`wrote ${OUT}docs.png and ${OUT}dashboard.png\n`)
} finally {
  await browser.close()
  await dashboard.close()
  await gateway.close()
  await workers.close()
  await redis.stop()
}
