/**
 * The process's Prometheus metrics (prom-client's default registry: whatever gateway and worker metrics this
 * process registered, plus Node's own, prefixed `svc_`).
 */
import client from 'prom-client'

let defaults = false

/** The metrics in Prometheus text format. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  if (!defaults) {
    client.collectDefaultMetrics({ prefix: 'svc_' })
    defaults = true
  }
  return { body: await client.register.metrics(), contentType: client.register.contentType }
}
