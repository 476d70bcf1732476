/**
 * How fast the catalogue UI's search page renders, measured in Debian's Chromium against a running service:
 *
 *   node ops/bench/uiPage.ts --url http://127.0.0.1:8080 [--load 100000] [--runs 20] [--token T]
 *
 * `--load N` first writes N synthetic datasets through `POST /aspects?action=ingestProposalBatch` (1,000 per
 * request, a few requests at a time; each dataset gets properties and an owner, one in ten a tag). Then, for a few searches, it
 * times (a) a cold page load: navigation start to the first results on screen (module loading included), and
 * (b) a search from the page: the hash change to the results on screen, and how much of it was waiting for the
 * API's answers; `--runs` times each; it prints medians and 95th percentiles. Nothing here is a test: it only
 * reports.
 */
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    load: { type: 'string', default: '0' },
    runs: { type: 'string', default: '20' },
    token: { type: 'string' },
  },
})
const base = values.url!.replace(/\/+$/, '')
const headers: Record<string, string> = { 'content-type': 'application/json', ...(values.token ? { authorization: `Bearer ${values.token}` } : {}) }

const PLATFORMS = ['hive', 'kafka', 'postgres', 'snowflake', 's3', 'bigquery', 'mysql', 'redshift']
const WORDS = ['orders', 'customers', 'payments', 'shipments', 'events', 'sessions', 'invoices', 'products', 'inventory', 'clicks', 'refunds', 'accounts']
const TAGS = ['PII', 'Gold', 'Deprecated', 'Finance', 'Marketing']
const proposal = (urn: string, aspectName: string, value: unknown) => ({
  entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { contentType: 'application/json', value: JSON.stringify(value) },
})

function datasetProposals(i: number): unknown[] {
  const word = WORDS[i % WORDS.length]!
  const urn = `urn:svc:dataset:(urn:svc:dataPlatform:${PLATFORMS[i % PLATFORMS.length]},bench_db${i % 97}.${word}_${i},PROD)`
  return [
    proposal(urn, 'datasetProperties', { name: `${word}_${i}`, description: `Synthetic ${word} table number ${i} for the UI timing` }),
    proposal(urn, 'ownership', { owners: [{ owner: `urn:svc:corpuser:owner${i % 40}`, type: 'DATAOWNER' }] }),
    ...(i % 10 === 0 ? [proposal(urn, 'globalTags', { tags: [{ tag: `urn:svc:tag:${TAGS[(i / 10) % TAGS.length]}` }] })] : []),
  ]
}

async function load(count: number): Promise<void> {
  const perRequest = 1000
  const started = performance.now()
  let next = 0
  let rejected = 0
  const worker = async () => {
    while (next < count) {
      const from = next
      next = Math.min(count, next + Math.floor(perRequest / 2.2))
      const proposals = []
      for (let i = from; i < next; i++) proposals.push(...datasetProposals(i))
      const res = await fetch(`${base}/aspects?action=ingestProposalBatch`, { method: 'POST', headers, body: JSON.stringify({ proposals }) })
      const body = await res.json() as { value?: { rejected: number } }
      if (!res.ok) throw new Error(`batch at ${from}: HTTP ${res.status} ${JSON.stringify(body)}`)
      rejected += body.value?.rejected ?? 0
      if (Math.floor(from / 10_000) !== Math.floor(next / 10_000)) process.stdout.write(`  ${next} datasets, ${((performance.now() - started) / 1000).toFixed(0)} s\n`)
    }
  }
  await Promise.all([worker(), worker(), worker()])
  process.stdout.write(`loaded ${count} datasets (${rejected} proposals rejected) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!

if (Number(values.load) > 0) await load(Number(values.load))
const total = await fetch(`${base}/entities?action=search`, { method: 'POST', headers, body: JSON.stringify({ input: '*', entity: 'dataset', count: 0 }) })
  .then((r) => r.json()) as { value: { numEntities: number } }
process.stdout.write(`datasets searchable: ${total.value.numEntities}\n`)

const { chromium } = await import('playwright-core')
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
const searches: [string, string][] = [
  ['everything (all types, facets)', 'q='],
  ['words "orders"', 'q=orders'],
  ['platform facet picked (datasets)', 'type=dataset&f=platform%7CEQUAL%7Chive'],
  ['field:value "tags:PII"', 'q=tags%3APII'],
]
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  if (values.token) await context.addInitScript((token) => sessionStorage.setItem('svc-catalog.token', token), values.token)
  // Records when results answering the current hash are on screen (the page marks stale results aria-busy).
  await context.addInitScript(() => {
    const w = window as unknown as { __shown?: number; __mark: () => void }
    w.__mark = () => { w.__shown = undefined }
    new MutationObserver(() => {
      if (w.__shown === undefined && document.querySelector('section.results[aria-busy="false"] .result-count')) w.__shown = performance.now()
    }).observe(document, { subtree: true, childList: true, attributes: true })
  })
  const page = await context.newPage()
  const rows: string[] = []
  for (const [label, query] of searches) {
    const cold: number[] = []
    const warm: number[] = []
    const waitingForApi: number[] = []
    for (let run = 0; run < Number(values.runs); run++) {
      await page.goto('about:blank')
      await page.goto(`${base}/#/search?${query}`)
      await page.waitForFunction(() => (window as unknown as { __shown?: number }).__shown !== undefined, undefined, { timeout: 30_000 })
      cold.push(await page.evaluate(() => (window as unknown as { __shown: number }).__shown))
      // The same search from the page itself (modules loaded): hash change to results on screen.
      const ms = await page.evaluate(async (q) => {
        const w = window as unknown as { __shown?: number; __mark: () => void }
        performance.clearResourceTimings()
        w.__mark()
        const t0 = performance.now()
        location.hash = `#/search?${q}&again=${Math.random()}`
        while (w.__shown === undefined) await new Promise((r) => setTimeout(r, 2))
        // The API's share: from the change to the last answer (the requests overlap; the page waits for them).
        const api = Math.max(0, ...performance.getEntriesByType('resource').map((e) => (e as PerformanceResourceTiming).responseEnd - t0))
        return { total: w.__shown - t0, api }
      }, query)
      warm.push(ms.total)
      waitingForApi.push(ms.api)
    }
    rows.push(`${label.padEnd(34)} cold load p50 ${quantile(cold, 0.5).toFixed(0).padStart(4)} ms p95 ${quantile(cold, 0.95).toFixed(0).padStart(4)} ms | search from the page p50 ${quantile(warm, 0.5).toFixed(0).padStart(4)} ms p95 ${quantile(warm, 0.95).toFixed(0).padStart(4)} ms (API answers in p50 ${quantile(waitingForApi, 0.5).toFixed(0).padStart(4)} ms)`)
  }
  process.stdout.write(`${rows.join('\n')}\n`)
} finally {
  await browser.close()
}
