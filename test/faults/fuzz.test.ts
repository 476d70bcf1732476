/**
 * Bad input, generated: thousands of malformed requests to every route (broken JSON, wrong types, deep nesting,
 * huge bodies, hostile urns, unknown aspects, schema violations, wrong encodings, odd query strings) against a
 * gateway process. Each write is refused with a 4xx and the error body; no request gets a 5xx; the store is
 * byte-for-byte unchanged afterwards. Every problem is collected (not just the first) and reported by kind.
 */
import fc from 'fast-check'
import type { RedisClient } from '../../model/store/redis.ts'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { FULL, startCluster, type Cluster } from '../helpers/faults.ts'
import { ADMIN_TOKEN, reads, seeded, writes, type Fuzzed } from '../helpers/faultsFuzz.ts'
import { httpCall } from '../helpers/service.ts'
import { snapshotStore } from '../helpers/store.ts'

const RUNS = FULL ? 10_000 : 1_000
const t = suite<{ cluster: Cluster; redis: RedisClient; before: Map<string, string> }>('faults: fuzzed bad input')

t.before(async (ctx) => {
  ctx.cluster = await startCluster(1, { MAX_BODY_BYTES: String(64 * 1024), ADMIN_TOKEN })
  ctx.redis = ctx.cluster.connect()
  // Seeded data, so that "unchanged" means something.
  const ingest = (value: unknown) => httpCall(ctx.cluster.url, 'POST', '/entities?action=ingest', { entity: { value } })
  assert.is((await ingest({ 'com.svc.metadata.snapshot.DatasetSnapshot': { urn: seeded[0], aspects: [{ 'com.svc.common.Ownership': { owners: [{ owner: seeded[1], type: 'DATAOWNER' }] } }] } })).status, 200)
  assert.is((await ingest({ 'com.svc.metadata.snapshot.CorpUserSnapshot': { urn: seeded[1], aspects: [{ 'com.svc.identity.CorpUserInfo': { active: true, displayName: 'Seed' } }] } })).status, 200)
  ctx.before = await snapshotStore(ctx.redis, ctx.cluster.env.KEY_PREFIX!)
})
t.after(async (ctx) => {
  ctx.redis.disconnect()
  await ctx.cluster.stop()
})

/** Printable: anything outside ASCII as \\uXXXX (examples hold raw bytes and lone surrogates). */
const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** What is wrong with the answer to `req` (undefined: nothing). */
function problemOf(req: Fuzzed, status: number, text: string): string | undefined {
  if (status >= 500) return `${status}`
  if (req.batch && status === 200 && (JSON.parse(text) as { value: { accepted: number } }).value.accepted === 0) return undefined
  if (req.write && (status < 400 || status > 499)) return `accepted with ${status}`
  if (status < 400) return undefined
  try {
    const body = JSON.parse(text) as { status: unknown; code: unknown; message: unknown; details: unknown }
    if (body.status === status && typeof body.code === 'string' && typeof body.message === 'string' && Array.isArray(body.details)) return undefined
  } catch { /* not JSON */ }
  return `${status} without the error body`
}

t(`${RUNS} malformed requests: 4xx with the error body, never a 5xx, the store unchanged`, async ({ cluster, redis, before }) => {
  const statuses = new Map<number, number>()
  const found = new Map<string, { count: number; example: string }>()
  await fc.assert(fc.asyncProperty(fc.oneof({ arbitrary: writes, weight: 3 }, { arbitrary: reads, weight: 2 }), async (req) => {
    let status = 0
    let text = ''
    try {
      const res = await fetch(`${cluster.url}${req.path}`, { method: req.method, body: typeof req.body === 'object' ? new Uint8Array(req.body) : req.body, headers: { 'content-type': 'application/json', ...req.headers } })
      status = res.status
      text = await res.text()
    } catch (err) {
      text = String(err)
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
    const problem = problemOf(req, status, text)
    if (!problem) return
    const kind = `${req.label}: ${problem}`
    const seen = found.get(kind) ?? { count: 0, example: ascii(`${req.method} ${req.path.slice(0, 160)} ${req.body === undefined ? '' : Buffer.from(req.body).toString('latin1').slice(0, 160)} -> ${text.slice(0, 160)}`) }
    found.set(kind, { ...seen, count: seen.count + 1 })
  }), { numRuns: RUNS, seed: FULL ? undefined : 42 })
  console.log(`fuzz: ${RUNS} requests, statuses ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}x${n}`).join(' ')}`)
  const report = [...found].map(([kind, { count, example }]) => `${kind} (${count}x), e.g. ${example}`)
  if (report.length > 0) console.log(`fuzz found:\n  ${report.join('\n  ')}`)
  const after = await snapshotStore(redis, cluster.env.KEY_PREFIX!)
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k))
  if (changed.length > 0) console.log(`fuzz changed ${changed.length} keys, e.g. ${changed.slice(0, 5).join(', ')}`)
  assert.ok(report.length === 0, `${report.length} kinds of wrong answers (listed above)`)
  assert.ok(changed.length === 0, `${changed.length} keys changed (listed above)`)
})

t.run()
