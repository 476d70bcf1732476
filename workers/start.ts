/** Starts a worker: one BullMQ Worker per partition queue, applying jobs with the model. */
import type { Job, Worker } from 'bullmq'
import type { Config } from '../model/config.ts'
import type { WriteJob } from '../model/jobs.ts'
import type { Logger } from '../model/log.ts'
import { openModel, type OpenOptions } from '../model/services/runtime.ts'
import { connectForQueues, connectForStore } from '../model/store/redis.ts'
import { limitPartitions } from '../model/services/writeQueues.ts'
import { startConsumers, type ConsumerEvents } from './consumer.ts'
import { FollowUps } from './followUps.ts'
import { applySeconds, casConflicts, followUpsFailed, jobsApplied, jobsFailed } from './metrics.ts'

const urnsOf = (job: Job<WriteJob>): string[] => [...new Set(job.data.items.map((i) => i.urn))]

export interface RunningWorkers {
  workers: Worker[]
  close(): Promise<void>
}

export async function startWorkers(config: Config, log: Logger, events: ConsumerEvents = {}, open: OpenOptions = {}): Promise<RunningWorkers> {
  const storeConnection = connectForStore(config, 'svc-worker-store')
  const queueConnection = connectForQueues(config, 'svc-worker-queue')
  const model = await openModel(config, storeConnection, open)
  await limitPartitions(queueConnection, model.keys, config.partitions)
  const deps = { registry: model.registry, store: model.store, edges: model.edges, plan: model.plan, onConflict: () => casConflicts.inc() }
  const followUps = new FollowUps(queueConnection, model.keys, config.partitions)
  const workers = startConsumers(config, queueConnection, model.keys, deps, followUps, {
    onApplied: (partition, job, millis) => {
      jobsApplied.inc({ partition: String(partition) })
      applySeconds.observe({ partition: String(partition) }, millis / 1000)
      if (log.enabled('info')) log.info('job applied', { partition, job: job.id, urns: urnsOf(job), items: job.data.items.length, ms: Math.round(millis * 100) / 100 })
      events.onApplied?.(partition, job, millis)
    },
    onFailed: (partition, job, err) => {
      jobsFailed.inc({ partition: String(partition) })
      log.error('job failed', { partition, job: job?.id, urns: job ? urnsOf(job) : undefined, error: err.message })
      events.onFailed?.(partition, job, err)
    },
    onFollowUpFailed: (partition, job, err) => {
      followUpsFailed.inc({ partition: String(partition) })
      log.error('follow-up not queued: references to the entities this job removed stay until restated', { partition, job: job.id, urns: urnsOf(job), error: err.message })
      events.onFollowUpFailed?.(partition, job, err)
    },
  })
  await Promise.all(workers.map((w) => w.waitUntilReady()))
  log.notice('workers running', { partitions: config.partitions, engine: model.engine.name })
  return {
    workers,
    async close() {
      await Promise.all(workers.map((w) => w.close()))
      await followUps.close()
      await model.engine.close?.()
      queueConnection.disconnect()
      storeConnection.disconnect()
    },
  }
}
