/**
 * The BullMQ side of the workers: one Worker per partition queue (model/services/writeQueues.ts), each queue limited to one
 * active job at a time across every worker process (global concurrency 1), so writes to one entity apply one at a
 * time, in order. A worker process killed mid-job loses its lock; the job is then found stalled and run again
 * (idempotently).
 */
import type { Job, Worker } from 'bullmq'
import type { Config } from '../model/config.ts'
import { isCatalogError } from '../model/errors.ts'
import type { FollowUp, JobReply, JobResult, WriteJob } from '../model/jobs.ts'
import type { Keys } from '../model/store/keys.ts'
import type { RedisClient } from '../model/store/redis.ts'
import { partitionWorker } from '../model/services/writeQueues.ts'
import { applyJob, type ApplyDeps } from './applyJob.ts'
import type { FollowUps } from './followUps.ts'
import { recordOutcome } from './writeRecords.ts'

export interface ConsumerEvents {
  onApplied?: (partition: number, job: Job, millis: number) => void
  onFailed?: (partition: number, job: Job | undefined, err: Error) => void
  /** A job applied, but what it leaves to do (followUps.ts) could not be queued: the write stands, the cleanup is lost. */
  onFollowUpFailed?: (partition: number, job: Job, err: Error) => void
}

/** Starts one Worker per partition; returns them (close them to stop). */
export function startConsumers(config: Config, connection: RedisClient, keys: Keys, deps: ApplyDeps, followUps: FollowUps, events: ConsumerEvents = {}): Worker[] {
  return Array.from({ length: config.partitions }, (_, p) => {
    // The queue's wake-up marker is cleared on the store's connection (writeQueues.ts partitionWorker).
    const worker = partitionWorker(connection, deps.store.redis, keys, p, config, async (job: Job<WriteJob, JobResult>) => {
      const started = performance.now()
      // The outcome goes to whoever will ask: the gateway waiting on its reply channel, or (async) the write's record.
      // Losing either leaves BullMQ's own record of the job, which the gateway reads as well.
      const tell = (body: Omit<JobReply, 'id'>) => job.data.replyTo
        ? connection.publish(job.data.replyTo, JSON.stringify({ id: job.id, ...body })).catch(() => 0)
        : recordOutcome(connection, keys, job.id!, body).catch(() => 0)
      let applied: JobResult
      try {
        applied = await applyJob(deps, job.data, job.id!)
      } catch (err) {
        await tell({ error: err instanceof Error ? err.message : String(err), ...(isCatalogError(err) ? { code: err.code } : {}) })
        throw err
      }
      // Applied, so the job succeeded whatever happens to its follow-ups (failing it would report an applied write
      // as failed); the outcome may be told now (BullMQ records the completion next).
      const queued: FollowUp[] = await followUps.after(deps, job.id!, job.data, applied)
        .catch((err: Error) => { events.onFollowUpFailed?.(p, job, err); return [] })
      const result: JobResult = queued.length > 0 ? { ...applied, followUps: queued } : applied
      // A reply is not awaited: it goes out on this connection ahead of BullMQ's completion of the job, and the
      // partition's next job need not wait for its round trip. (A record, for an async write, is awaited.)
      if (job.data.replyTo) void tell({ result })
      else await tell({ result })
      events.onApplied?.(p, job, performance.now() - started)
      return result
    })
    worker.on('failed', (job, err) => events.onFailed?.(p, job, err))
    worker.on('error', (err) => events.onFailed?.(p, undefined, err))
    return worker
  })
}
