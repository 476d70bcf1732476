/** The queue dashboard: every partition queue, a failed job's error, retry; an admin token when auth is on. */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { TokenStore } from '../../model/services/tokens.ts'
import { createLogger } from '../../model/log.ts'
import { queueName } from '../../model/jobs.ts'
import { openQueue } from '../../model/services/writeQueues.ts'
import { startDashboard, type RunningDashboard } from '../../ops/dashboard/start.ts'
import { partitionLabel } from '../../ops/dashboard/app.ts'
import { browserAvailable, launchChromium, screenshot } from '../helpers/browser.ts'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService; dashboard: RunningDashboard; token: string }>('queue dashboard')
t.before(async (ctx) => {
  ctx.svc = await startService({ authEnabled: true })
  ctx.dashboard = await startDashboard({ ...ctx.svc.config, dashboardPort: 0 }, createLogger('silent', 'test'))
  ctx.token = (await new TokenStore(ctx.svc.gateway.model.redis, ctx.svc.gateway.model.keys).create('ops', 'admin')).token
  // A job no worker can apply (its urn does not parse): it fails, and shows up with its error.
  const queue = openQueue(ctx.svc.gateway.model.redis, ctx.svc.gateway.model.keys, 1)
  await queue.add('write', { items: [{ op: 'upsert', urn: 'not-a-urn', entityType: 'dataset', aspects: [] }], actor: 'urn:svc:corpuser:test', time: Date.now() }, { jobId: 'broken-job' })
  for (let i = 0; i < 100 && (await queue.getFailedCount()) === 0; i++) await new Promise((r) => setTimeout(r, 50))
  await queue.close()
})
t.after(async (ctx) => {
  await ctx.dashboard.close()
  await ctx.svc.close()
})

t('partitions are labelled so that alphabetical order is numeric order', () => {
  const labels = Array.from({ length: 16 }, (_, p) => partitionLabel(p, 16))
  assert.is(labels[1], 'ingest-01')
  assert.is(labels[15], 'ingest-15')
  assert.equal([...labels].sort((a, b) => a.localeCompare(b)), labels)
  assert.is(partitionLabel(3, 4), 'ingest-3')
  assert.is(partitionLabel(7, 100), 'ingest-07')
})

const basic = (token: string) => `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`

t('with authentication on, the dashboard needs an admin token', async ({ dashboard, token, svc }) => {
  assert.is((await fetch(dashboard.url)).status, 401)
  const read = (await new TokenStore(svc.gateway.model.redis, svc.gateway.model.keys).create('reader', 'read')).token
  assert.is((await fetch(dashboard.url, { headers: { authorization: basic(read) } })).status, 401)
  assert.is((await fetch(dashboard.url, { headers: { authorization: basic(token) } })).status, 200)
  assert.is((await fetch(dashboard.url, { headers: { authorization: `Bearer ${token}` } })).status, 200)
  const api = await fetch(`${dashboard.url}/api/queues`, { headers: { authorization: basic(token) } }).then((r) => r.json()) as { queues: { name: string }[] }
  assert.is(api.queues.length, svc.config.partitions)
})

const browserTest = browserAvailable('dashboard browser test') ? t : t.skip
browserTest('the page lists every partition queue, shows a failed job\'s error and retries it', async ({ dashboard, token, svc }) => {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, httpCredentials: { username: 'admin', password: token } })
    await page.goto(dashboard.url)
    for (let p = 0; p < svc.config.partitions; p++) await page.getByText(partitionLabel(p, svc.config.partitions), { exact: true }).first().waitFor({ timeout: 30_000 })
    await page.goto(`${dashboard.url}/queue/${queueName(1)}?status=failed`)
    await page.getByText(/does not parse|invalid urn|not-a-urn/i).first().waitFor({ timeout: 30_000 })
    await screenshot(page, 'dashboard.png')
    await page.getByRole('button', { name: /retry/i }).first().click()
    const confirm = page.getByRole('button', { name: /confirm/i })
    if (await confirm.isVisible().catch(() => false)) await confirm.click()
    const queue = openQueue(svc.gateway.model.redis, svc.gateway.model.keys, 1)
    let attempts = 0
    for (let i = 0; i < 100; i++) {
      attempts = (await queue.getJob('broken-job'))?.attemptsMade ?? 0
      if (attempts >= 2) break
      await new Promise((r) => setTimeout(r, 100))
    }
    await queue.close()
    assert.ok(attempts >= 2, `retried from the page (attempts ${attempts})`)
  } finally {
    await browser.close()
  }
})

t.run()
