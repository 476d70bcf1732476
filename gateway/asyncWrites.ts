/**
 * Asynchronous writes (`"async": "true"` on proposals): items go to their partition's queue as jobs nobody waits
 * for, and the request is answered once BullMQ holds them (durably queued, not yet applied). Each job's id names its
 * partition (`<partition>-<uuid>`), so `GET /writes/<id>` finds the job's queue and reads its state from BullMQ:
 * queued or applying; once finished, the worker's record of the outcome (workers/writeRecords.ts: applied with each
 * item's result, or failed) answers for WRITE_RECORD_SECONDS, BullMQ's finished job (kept about a minute) when that
 * record could not be written. After that: 404 JOB_NOT_FOUND.
 */
import { randomUUID } from 'node:crypto'
import { Queue } from 'bullmq'
import type { RedisClient } from '../model/store/redis.ts'
import type { Config } from '../model/config.ts'
import { CatalogError, fail } from '../model/errors.ts'
import { positionsByPartition, queueName, WRITE_RECORD_SECONDS, type JobResult, type WriteItem, type WriteJob, type WriteOutcome } from '../model/jobs.ts'
import type { Keys } from '../model/store/keys.ts'

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
  private readonly connection: RedisClient
  private readonly keys: Keys
  private readonly queues: Queue<WriteJob, JobResult>[]

  constructor(config: Config, connection: RedisClient, keys: Keys) {
    this.config = config
    this.connection = connection
    this.keys = keys
    this.queues = Array.from({ length: config.partitions }, (_, p) => new Queue<WriteJob, JobResult>(queueName(p), {
      connection,
      prefix: keys.queuePrefix(),
      defaultJobOptions: {
        attempts: 1,
        // As the synchronous writes' (writeQueue.ts): the outcome outlives the job in the worker's record.
        removeOnComplete: { age: 60, count: 5000 },
        removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
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
    const notFound = () => fail('JOB_NOT_FOUND', `no write ${JSON.stringify(id.slice(0, 100))} (unknown, or its record has expired after ${WRITE_RECORD_SECONDS} s)`, [{ path: 'id', message: 'not found' }])
    if (!(partition < this.config.partitions)) throw notFound()
    const recorded = await this.connection.get(this.keys.writeRecord(id))
    if (recorded) return { id, ...(JSON.parse(recorded) as WriteOutcome) }
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
