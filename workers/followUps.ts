/**
 * Writes a worker queues after applying a job: the reference cleanup of the entities it removed
 * (model/services/references.ts). They go to the same reply channel as the job (a waiting gateway answers once they are
 * applied too); an asynchronous job's nobody waits for. Their job ids derive from the job's, so a job retried
 * after a crash queues each of them once (BullMQ ignores a job id it already holds).
 */
import { positionsByPartition, SYSTEM_ACTOR, type FollowUp, type JobResult, type WriteJob } from '../model/jobs.ts'
import { cleanupAfter, type ReferenceDeps } from '../model/services/references.ts'
import type { Keys } from '../model/store/keys.ts'
import type { RedisClient } from '../model/store/redis.ts'
import { WriteQueues } from '../model/services/writeQueues.ts'

export class FollowUps {
  private readonly queues: WriteQueues

  constructor(connection: RedisClient, keys: Keys, partitions: number) {
    this.queues = new WriteQueues(connection, keys, partitions)
  }

  /** Queues what job `jobId` leaves to do, once applied with `result`; answers the jobs it queued. */
  async after(deps: ReferenceDeps, jobId: string, job: WriteJob, result: JobResult): Promise<FollowUp[]> {
    const items = await cleanupAfter(deps, job.items, result.results)
    return Promise.all([...positionsByPartition(items, this.queues.partitions)].map(async ([partition, positions]) => {
      const id = `${jobId}-refs-${partition}`
      await this.queues.add(partition, { items: positions.map((i) => items[i]!), actor: SYSTEM_ACTOR, time: Date.now(), ...(job.replyTo ? { replyTo: job.replyTo } : {}) }, id)
      return { id, partition }
    }))
  }

  async close(): Promise<void> {
    await this.queues.close()
  }
}
