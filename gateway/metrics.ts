/**
 * Prometheus metrics of a gateway (prom-client's default registry: an all-in-one process shows the workers' too):
 * requests by route and status, request latency, write-queue depth per partition.
 */
import client from 'prom-client'

export const requestsTotal = new client.Counter({
  name: 'svc_http_requests_total',
  help: 'HTTP requests answered, by route and status',
  labelNames: ['method', 'route', 'status'] as const,
})

export const requestSeconds = new client.Histogram({
  name: 'svc_http_request_duration_seconds',
  help: 'HTTP request latency by route',
  labelNames: ['method', 'route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
})

let depthSource: () => readonly number[] = () => []

export const queueDepth = new client.Gauge({
  name: 'svc_write_queue_waiting',
  help: 'Write jobs waiting per partition queue (sampled by the gateway)',
  labelNames: ['partition'] as const,
  collect() {
    depthSource().forEach((n, p) => this.set({ partition: String(p) }, n))
  },
})

/** Makes the queue-depth gauge read the writer's samples when scraped. */
export function watchQueueDepth(depths: () => readonly number[]): void {
  depthSource = depths
}
