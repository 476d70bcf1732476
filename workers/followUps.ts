/**
 * Writes a worker queues after applying an asynchronous job: the reference cleanup of the entities it removed
 * (model/services/references.ts). Nobody waits for them. Their job ids derive from the job's, so a job retried after a
 * crash queues each of them once (BullMQ ignores a job id it already holds).
 */
import { Queue } from 'bullmq'
import { positionsByPartition, queueName, SYSTEM_ACTOR, type JobResult, type WriteJob } from '../model/jobs.ts'
import { cleanupAfter, type ReferenceDeps } from '../model/services/references.ts'
import type { Keys } from '../model/store/keys.ts'
import type { RedisClient } from '../model/store/redis.ts'

export class FollowUps {
  private readonly queues = new Map<number, Queue<WriteJob, JobResult>>()
  private readonly connection: RedisClient
  private readonly keys: Keys
  private readonly partitions: number

  constructor(connection: RedisClient, keys: Keys, partitions: number) {
    this.connection = connection
    this.keys = keys
    this.partitions = partitions
  }

  private queue(partition: number): Queue<WriteJob, JobResult> {
    let queue = this.queues.get(partition)
    if (!queue) {
      queue = new Queue<WriteJob, JobResult>(queueName(partition), {
        connection: this.connection,
        prefix: this.keys.queuePrefix(),
        defaultJobOptions: { attempts: 1, removeOnComplete: { age: 3600, count: 10_000 }, removeOnFail: { age: 7 * 24 * 3600, count: 10_000 } },
      })
      this.queues.set(partition, queue)
    }
    return queue
  }

  /** Queues what asynchronous job `jobId` leaves to do, once applied with `result`. */
  async after(deps: ReferenceDeps, jobId: string, job: WriteJob, result: JobResult): Promise<void> {
    if (job.replyTo) return // a synchronous write: the gateway waiting for it does the cleanup before answering
    const items = await cleanupAfter(deps, job.items, result.results)
    await Promise.all([...positionsByPartition(items, this.partitions)].map(([p, positions]) =>
      this.queue(p).add('write', { items: positions.map((i) => items[i]!), actor: SYSTEM_ACTOR, time: Date.now() }, { jobId: `${jobId}-refs-${p}` })))
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()))
  }
}
