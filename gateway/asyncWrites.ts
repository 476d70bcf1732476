/**
 * Asynchronous writes (`"async": "true"` on proposals): items go to their partition's queue as jobs nobody waits
 * for, and the request is answered once BullMQ holds them (durably queued, not yet applied). Each job's id names its
 * partition (`<partition>-<uuid>`), so `GET /writes/<id>` finds the job's queue and reads its state from BullMQ:
 * queued, applying, applied (with each item's outcome) or failed. Records of finished async writes are kept for
 * ASYNC_RECORD_SECONDS at most: BullMQ trims a queue's finished jobs by the options of whichever job finishes next,
 * and the synchronous writes (gateway/writeQueue.ts) keep theirs for 60 s, so on a partition that also takes
 * synchronous writes a record can go after about a minute (then 404 JOB_NOT_FOUND; the data itself tells).
 */
import { randomUUID } from 'node:crypto'
import { Queue } from 'bullmq'
import type { RedisClient } from '../model/store/redis.ts'
import type { Config } from '../model/config.ts'
import { CatalogError, fail } from '../model/errors.ts'
import { positionsByPartition, queueName, type JobResult, type WriteItem, type WriteJob } from '../model/jobs.ts'
import type { Keys } from '../model/store/keys.ts'

/** How long a finished async write can still be asked about, at most (see above). */
export const ASYNC_RECORD_SECONDS = 24 * 3600

/** Where the items of one request went: one write id per partition, and which items (by position) it carries. */
export interface QueuedWrite {
  id: string
  positions: number[]
}

/** What `GET /writes/<id>` answers. */
export interface WriteStatus {
  id: string
  state: 'queued' | 'applying' | 'applied' | 'failed'
  /** Applied: each item's urn, number of changes, and error when it was refused. */
  results?: JobResult['results']
  /** Failed as a whole: why. */
  error?: string
}

const ID = /^(\d+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export class AsyncWriter {
  private readonly config: Config
  private readonly queues: Queue<WriteJob, JobResult>[]

  constructor(config: Config, connection: RedisClient, keys: Keys) {
    this.config = config
    this.queues = Array.from({ length: config.partitions }, (_, p) => new Queue<WriteJob, JobResult>(queueName(p), {
      connection,
      prefix: keys.queuePrefix(),
      defaultJobOptions: {
        attempts: 1,
        removeOnComplete: { age: ASYNC_RECORD_SECONDS, count: 100_000 },
        removeOnFail: { age: ASYNC_RECORD_SECONDS * 7, count: 10_000 },
      },
    }))
  }

  /**
   * Queues `items` (one job per partition, items in order) and resolves once BullMQ holds them. `depths` are the
   * partitions' waiting jobs; a partition deeper than MAX_QUEUE_DEPTH refuses with 503 + Retry-After.
   */
  async submit(items: WriteItem[], actor: string, depths: readonly number[]): Promise<QueuedWrite[]> {
    const byPartition = positionsByPartition(items, this.config.partitions)
    for (const p of byPartition.keys()) {
      if ((depths[p] ?? 0) >= this.config.maxQueueDepth) {
        throw new CatalogError('OVERLOADED', `write queue ${p} holds ${depths[p]} waiting writes (limit ${this.config.maxQueueDepth}); retry later`, [], 1)
      }
    }
    return Promise.all([...byPartition].map(async ([p, positions]) => {
      const id = `${p}-${randomUUID()}`
      await this.queues[p]!.add('write', { items: positions.map((i) => items[i]!), actor, time: Date.now() }, { jobId: id })
      return { id, positions }
    }))
  }

  /** The state of write `id`; 404 JOB_NOT_FOUND when unknown or expired. */
  async status(id: string): Promise<WriteStatus> {
    const partition = Number(ID.exec(id)?.[1] ?? NaN)
    const notFound = () => fail('JOB_NOT_FOUND', `no write ${JSON.stringify(id.slice(0, 100))} (unknown, or its record has expired after ${ASYNC_RECORD_SECONDS} s)`, [{ path: 'id', message: 'not found' }])
    if (!(partition < this.config.partitions)) throw notFound()
    const queue = this.queues[partition]!
    const state = await queue.getJobState(id)
    if (state === 'unknown') throw notFound()
    if (state === 'completed' || state === 'failed') {
      // Read after the state: a job read while it was still running carries no outcome.
      const job = await queue.getJob(id)
      if (!job) throw notFound()
      return state === 'completed' ? { id, state: 'applied', results: job.returnvalue?.results ?? [] } : { id, state: 'failed', error: job.failedReason }
    }
    if (state === 'active') return { id, state: 'applying' }
    return { id, state: 'queued' }
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close()))
  }
}
