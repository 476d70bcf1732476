/**
 * The write queues: one BullMQ queue per partition (model/jobs.ts names them), under Keys.queuePrefix(). This is
 * the one module that builds them: the gateway's writer, the workers (their Workers and follow-ups), the CLI, the
 * dashboard and the readiness probe all open them here, so the job options and the queue settings live in one place.
 */
import { Queue, Worker, type Job } from 'bullmq'
import { queueName, type JobResult, type WriteJob } from '../jobs.ts'
import type { Keys } from '../store/keys.ts'
import type { RedisClient } from '../store/redis.ts'

/**
 * Options of every write job. One attempt: a job that throws is failed (a crash mid-job is a stall, which BullMQ
 * runs again). Finished jobs are kept briefly: a synchronous write's outcome goes to its reply channel, an
 * asynchronous one's to the worker's record (workers/writeRecords.ts), so BullMQ's copy is only the fallback.
 * BullMQ removes the expired ones in the script that finishes the next job of the queue, at most REMOVE_LIMIT
 * there: with its default (1,000), the first job a partition finished after a pause removed the hundreds that had
 * expired meanwhile in one script (`moveToFinished` of 21-66 ms of Redis's only thread, seen in the live
 * benchmark); now a burst of expired jobs goes in steps, one per job finished.
 */
const REMOVE_LIMIT = 50
export const JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 60, count: 5000, limit: REMOVE_LIMIT },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000, limit: REMOVE_LIMIT },
} as const

export type WriteQueue = Queue<WriteJob, JobResult>

/** Opens partition `partition`'s queue (close it when done). */
export function openQueue(connection: RedisClient, keys: Keys, partition: number): WriteQueue {
  return new Queue<WriteJob, JobResult>(queueName(partition), { connection, prefix: keys.queuePrefix(), defaultJobOptions: JOB_OPTIONS })
}

/** Every partition's queue, opened on first use. */
export class WriteQueues {
  private readonly opened = new Map<number, WriteQueue>()
  private readonly connection: RedisClient
  private readonly keys: Keys
  readonly partitions: number

  constructor(connection: RedisClient, keys: Keys, partitions: number) {
    this.connection = connection
    this.keys = keys
    this.partitions = partitions
  }

  queue(partition: number): WriteQueue {
    let queue = this.opened.get(partition)
    if (!queue) this.opened.set(partition, (queue = openQueue(this.connection, this.keys, partition)))
    return queue
  }

  /** Adds one job; a `jobId` the queue already holds adds nothing (BullMQ's dedup, which retried jobs rely on). */
  async add(partition: number, job: WriteJob, jobId: string): Promise<void> {
    await this.queue(partition).add('write', job, { jobId })
  }

  /**
   * Where job `id` is, from two fields of its hash (cheap, whatever its size): finished (applied or failed), still
   * queued or running, or gone (never added, removed, or lost with a failed-over master).
   */
  async progress(partition: number, id: string): Promise<'finished' | 'unfinished' | 'gone'> {
    const [finishedOn, timestamp] = await this.connection.hmget(this.queue(partition).toKey(id), 'finishedOn', 'timestamp')
    return finishedOn ? 'finished' : timestamp ? 'unfinished' : 'gone'
  }

  /** Waiting jobs per partition. */
  waitingCounts(): Promise<number[]> {
    return Promise.all(Array.from({ length: this.partitions }, (_, p) => this.queue(p).getWaitingCount()))
  }

  async close(): Promise<void> {
    await Promise.all([...this.opened.values()].map((q) => q.close()))
    this.opened.clear()
  }
}

/** Sets global concurrency 1 on every partition queue (idempotent; gateway and workers both do it). */
export async function limitPartitions(connection: RedisClient, keys: Keys, partitions: number): Promise<void> {
  const queues = new WriteQueues(connection, keys, partitions)
  try {
    await Promise.all(Array.from({ length: partitions }, (_, p) => queues.queue(p).setGlobalConcurrency(1)))
  } finally {
    await queues.close()
  }
}

/** How a worker holds its jobs (config.ts: lockDurationMs, stalledIntervalMs). */
export interface WorkerTiming {
  lockDurationMs: number
  stalledIntervalMs: number
}

/**
 * A Worker on partition `partition`'s queue, one job at a time. A job whose worker died is found stalled and run
 * again (any number of times: applying is idempotent per job, workers/applyJob.ts).
 *
 * BullMQ sets the queue's wake-up marker whenever a worker takes a job, so that other workers look for more; a
 * partition takes one job at a time (limitPartitions), so that marker only ever woke this worker's next blocking
 * read at once, to a `moveToActive` that found the queue at its limit: two wasted round trips (a script and a
 * BZPOPMIN) per job, 1.9 of each per job in the live scenario instead of one. The marker is cleared while the job
 * runs, and before the job is finished: a job added meanwhile sets none (the queue is at its limit), and the script
 * that finishes this job takes the next one itself. The clearing goes on `markerConnection` (the store's, which
 * sends the commands of a moment in one write per node: on one server with the job's first reads, at no write of
 * its own; on the queue connection it cost one, and 16 clients measured no better for it).
 */
export function partitionWorker(connection: RedisClient, markerConnection: RedisClient, keys: Keys, partition: number, timing: WorkerTiming,
  process: (job: Job<WriteJob, JobResult>) => Promise<JobResult>): Worker<WriteJob, JobResult> {
  const worker: Worker<WriteJob, JobResult> = new Worker<WriteJob, JobResult>(queueName(partition), async (job) => {
    const cleared = markerConnection.zrem(worker.keys.marker!, BASE_MARKER).catch(() => 0)
    try {
      return await process(job)
    } finally {
      await cleared
    }
  }, {
    connection,
    prefix: keys.queuePrefix(),
    concurrency: 1,
    lockDuration: timing.lockDurationMs,
    stalledInterval: timing.stalledIntervalMs,
    maxStalledCount: 1000,
    autorun: true,
  })
  return worker
}

/** The member of a queue's marker (a sorted set) that BullMQ sets to wake its workers for waiting jobs. */
const BASE_MARKER = '0'
