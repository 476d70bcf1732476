/** Health, readiness, Prometheus metrics and the structured request log. */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { GatewayDeps } from '../../gateway/deps.ts'
import { healthRoutes } from '../../gateway/routes/health.ts'
import { spawnService } from '../helpers/processes.ts'
import { startService, testConfig, type TestService, redisEnv } from '../helpers/service.ts'

const t = suite<{ svc: TestService }>('health, readiness, metrics, logs')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

t('/health answers; /ready says Redis answers and workers are connected', async ({ svc }) => {
  assert.equal((await svc.call('GET', '/health')).body, { status: 'ok' })
  await svc.gateway.warmed
  const ready = await svc.call('GET', '/ready')
  assert.is(ready.status, 200)
  assert.is(ready.body.redis, true)
  assert.ok(ready.body.workers > 0)
  assert.is(ready.body.search, 'ready')
})

t('/ready is 503 while the search engine is still preparing the gateway', async ({ svc }) => {
  const ready = healthRoutes({ model: svc.gateway.model, writer: svc.gateway.writer, searchWarm: { done: false } } as GatewayDeps).find((r) => r.path === '/ready')!
  const answer = await (ready.handler as () => Promise<{ status: number; body: Record<string, unknown> }>)()
  assert.is(answer.status, 503)
  assert.is(answer.body.search, 'copying')
  assert.is(answer.body.redis, true)
})

t('/ready is 503 while no worker is connected', async () => {
  const lonely = await startService({}, { workers: false })
  try {
    const res = await lonely.call('GET', '/ready')
    assert.is(res.status, 503)
    assert.is(res.body.workers, 0)
  } finally {
    await lonely.close()
  }
})

t('/metrics: requests per route and status, queue depth, apply latency', async ({ svc }) => {
  await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'tag', entityUrn: 'urn:svc:tag:metrics', changeType: 'UPSERT', aspectName: 'tagProperties', aspect: { value: '{"name":"metrics"}', contentType: 'application/json' } } })
  await svc.call('GET', '/nowhere')
  const res = await fetch(`${svc.url}/metrics`)
  assert.match(res.headers.get('content-type') ?? '', /text\/plain/)
  const text = await res.text()
  assert.match(text, /svc_http_requests_total\{method="POST",route="POST \/aspects\?action=ingestProposal",status="200"\} \d+/)
  assert.match(text, /svc_http_request_duration_seconds_bucket/)
  assert.match(text, /svc_write_queue_waiting\{partition="0"\} \d+/)
  assert.match(text, /svc_apply_duration_seconds_count\{partition="\d+"\} [1-9]/)
  assert.match(text, /svc_apply_cas_conflicts_total \d+/)
})

t('one JSON log line per request, with the urn', async () => {
  const config = testConfig()
  const gateway = spawnService('gateway/main.ts', { ...redisEnv(config), PORT: '0', LOG_LEVEL: 'info' })
  try {
    await gateway.waitFor(/gateway listening/)
    const url = JSON.parse(gateway.output().split('\n').find((l) => l.includes('gateway listening'))!).url as string
    await fetch(`${url}/entitiesV2/${encodeURIComponent('urn:svc:corpuser:logged')}`)
    await gateway.waitFor(/"msg":"request"/)
    const line = JSON.parse(gateway.output().split('\n').find((l) => l.includes('"msg":"request"'))!)
    assert.is(line.level, 'info')
    assert.is(line.route, 'GET /entitiesV2/*')
    assert.is(line.status, 200)
    assert.is(line.urn, 'urn:svc:corpuser:logged')
    assert.type(line.ms, 'number')
  } finally {
    await gateway.kill()
  }
})

t.run()
