/**
 * The BullMQ side of the workers: one Worker per partition queue, each queue limited to one active job at a time
 * across every worker process (global concurrency 1), so writes to one entity apply one at a time, in order.
 * A worker process killed mid-job loses its lock; the job is then found stalled and run again (idempotently).
 */
import { Queue, Worker, type Job } from 'bullmq'
import type { Config } from '../model/config.ts'
import { isCatalogError } from '../model/errors.ts'
import type { JobReply, JobResult, WriteJob } from '../model/jobs.ts'
import { queueName } from '../model/jobs.ts'
import type { Keys } from '../model/store/keys.ts'
import type { RedisClient } from '../model/store/redis.ts'
import { applyJob, type ApplyDeps } from './applyJob.ts'
import type { FollowUps } from './followUps.ts'
import { recordOutcome } from './writeRecords.ts'

export interface ConsumerEvents {
  onApplied?: (partition: number, job: Job, millis: number) => void
  onFailed?: (partition: number, job: Job | undefined, err: Error) => void
  /** A job applied, but what it leaves to do (followUps.ts) could not be queued: the write stands, the cleanup is lost. */
  onFollowUpFailed?: (partition: number, job: Job, err: Error) => void
}

/** Sets global concurrency 1 on every partition queue (idempotent; gateway and workers both do it). */
export async function limitPartitions(connection: RedisClient, keys: Keys, partitions: number): Promise<void> {
  await Promise.all(Array.from({ length: partitions }, async (_, p) => {
    const queue = new Queue(queueName(p), { connection, prefix: keys.queuePrefix() })
    await queue.setGlobalConcurrency(1)
    await queue.close()
  }))
}

/** Starts one Worker per partition; returns them (close them to stop). */
export function startConsumers(config: Config, connection: RedisClient, keys: Keys, deps: ApplyDeps, followUps: FollowUps, events: ConsumerEvents = {}): Worker[] {
  return Array.from({ length: config.partitions }, (_, p) => {
    const worker = new Worker<WriteJob, JobResult>(
      queueName(p),
      async (job) => {
        const started = performance.now()
        // The outcome goes to whoever will ask: the gateway waiting on its reply channel, or (async) the write's record.
        // Losing either leaves BullMQ's own record of the job, which the gateway reads as well.
        const tell = (body: Omit<JobReply, 'id'>) => job.data.replyTo
          ? connection.publish(job.data.replyTo, JSON.stringify({ id: job.id, ...body })).catch(() => 0)
          : recordOutcome(connection, keys, job.id!, body).catch(() => 0)
        let result: JobResult
        try {
          result = await applyJob(deps, job.data, job.id!)
        } catch (err) {
          await tell({ error: err instanceof Error ? err.message : String(err), ...(isCatalogError(err) ? { code: err.code } : {}) })
          throw err
        }
        // Applied, so the job succeeded whatever happens to its follow-ups (failing it would report an applied write
        // as failed); the outcome may be told now (BullMQ records the completion next).
        await followUps.after(deps, job.id!, job.data, result)
          .catch((err: Error) => events.onFollowUpFailed?.(p, job, err))
        await tell({ result })
        events.onApplied?.(p, job, performance.now() - started)
        return result
      },
      {
        connection,
        prefix: keys.queuePrefix(),
        concurrency: 1,
        lockDuration: config.lockDurationMs,
        stalledInterval: config.stalledIntervalMs,
        maxStalledCount: 1000,
        autorun: true,
      },
    )
    worker.on('failed', (job, err) => events.onFailed?.(p, job, err))
    worker.on('error', (err) => events.onFailed?.(p, undefined, err))
    return worker
  })
}
