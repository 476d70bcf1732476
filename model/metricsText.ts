/**
 * The process's Prometheus metrics (prom-client's default registry: whatever gateway and worker metrics this
 * process registered, plus Node's own, prefixed `svc_`), and those of its other sources (the workers' thread of
 * `npm start`: workers/inThread.ts).
 */
import client from 'prom-client'

let defaults = false
const sources = new Set<() => Promise<string>>()

/** Adds metrics kept elsewhere (under names of their own) to this process's text; returns its removal. */
export function addMetricsSource(source: () => Promise<string>): () => void {
  sources.add(source)
  return () => { sources.delete(source) }
}

/** The metrics in Prometheus text format. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  if (!defaults) {
    client.collectDefaultMetrics({ prefix: 'svc_' })
    defaults = true
  }
  const others = await Promise.all([...sources].map((source) => source().catch(() => '')))
  return { body: [await client.register.metrics(), ...others.filter(Boolean)].join('\n'), contentType: client.register.contentType }
}
