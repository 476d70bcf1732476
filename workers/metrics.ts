/** Prometheus metrics of the workers: jobs applied and failed, apply latency, compare-and-set conflicts, follow-ups not queued. */
import client from 'prom-client'

export const jobsApplied = new client.Counter({ name: 'svc_jobs_applied_total', help: 'Write jobs applied, by partition', labelNames: ['partition'] as const })
export const jobsFailed = new client.Counter({ name: 'svc_jobs_failed_total', help: 'Write jobs failed, by partition', labelNames: ['partition'] as const })
export const applySeconds = new client.Histogram({
  name: 'svc_apply_duration_seconds',
  help: 'Time to apply one write job (read, derive, compare-and-set script)',
  labelNames: ['partition'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
})
export const casConflicts = new client.Counter({ name: 'svc_apply_cas_conflicts_total', help: 'Applies retried because the entity changed between read and write' })
export const followUpsFailed = new client.Counter({ name: 'svc_follow_ups_failed_total', help: 'Applied asynchronous jobs whose reference cleanup could not be queued, by partition', labelNames: ['partition'] as const })
