/**
 * Operational routes: `/health` (the process is alive; public), `/ready` (Redis answers, workers are present and the
 * search engine has prepared this process: GatewayDeps.searchWarm) and `/metrics`; these two are read routes (with
 * AUTH_ENABLED, Prometheus sends a bearer token).
 */
import { metricsText } from '../../model/metricsText.ts'
import type { GatewayDeps } from '../deps.ts'
import type { RouteSpec } from '../http/route.ts'

export function healthRoutes({ model, writer, searchWarm }: GatewayDeps): RouteSpec[] {
  return [
    {
      method: 'GET', path: '/health', scope: 'public', summary: 'Liveness: the gateway process answers',
      handler: async function liveness() { return { body: { status: 'ok' } } },
    },
    {
      method: 'GET', path: '/ready', scope: 'read', summary: 'Readiness: Redis answers, at least one worker is connected and search is prepared (503 otherwise)',
      handler: async function readiness() {
        const checks: Record<string, unknown> = {}
        try {
          checks.redis = (await model.redis.ping()) === 'PONG'
          // Asked on the queue connection: a BullMQ queue on the request connection would define its 65 scripts
          // there, and ioredis copies every defined script onto each pipeline (one per autopipelined batch).
          checks.workers = await writer.workersCount()
        } catch (err) {
          checks.redis = false
          checks.error = err instanceof Error ? err.message : String(err)
        }
        checks.search = searchWarm && !searchWarm.done ? 'copying' : 'ready'
        const ready = checks.redis === true && Number(checks.workers) > 0 && checks.search === 'ready'
        return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not ready', engine: model.engine.name, ...checks } }
      },
    },
    {
      method: 'GET', path: '/metrics', scope: 'read', summary: 'Prometheus metrics of this process',
      handler: async function serveMetrics() {
        const { body, contentType } = await metricsText()
        return { body: undefined, raw: body, contentType }
      },
    },
  ]
}
