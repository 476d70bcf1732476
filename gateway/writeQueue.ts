/**
 * The gateway's side of the write path: items go to their partition's queue (one job per partition per request),
 * and the request waits until a worker has applied them, so an acknowledged write is already readable and
 * searchable. Queues deeper than MAX_QUEUE_DEPTH refuse new writes with 503 + Retry-After.
 *
 * Writes for one partition (from one actor) that arrive while this gateway's previous job for that partition is
 * still being applied share the next job: BullMQ's cost per job (three scripts and their events) is then paid
 * once for all of them, and nothing waits longer than it would have in the queue (a partition applies one job at
 * a time anyway). Items keep their order, so writes to one entity still apply in arrival order.
 *
 * Completions come back on this gateway's own reply channel (the worker publishes each applied job's result
 * there): one message per job, where BullMQ's event stream would have every gateway read every event of every
 * job. A message lost while the subscriber reconnects is caught by reading the job's state from BullMQ.
 */
import { randomUUID } from 'node:crypto'
import { Queue } from 'bullmq'
import type { Config } from '../model/config.ts'
import { CatalogError, ERRORS, type ErrorCode } from '../model/errors.ts'
import { positionsByPartition, queueName, type ItemResult, type JobReply, type JobResult, type WriteItem, type WriteJob } from '../model/jobs.ts'
import type { Keys } from '../model/store/keys.ts'
import type { RedisClient } from '../model/store/redis.ts'
import { storeFailure } from '../model/store/storeFailures.ts'

/** What routes use to write. */
export interface Writer {
  /** Applies `items` (in order per entity) and resolves once all are applied. */
  submit(items: WriteItem[], actor: string): Promise<ItemResult[]>
  /** Waiting jobs per partition (last sample). */
  depths(): readonly number[]
  close(): Promise<void>
}

const DEPTH_SAMPLE_MS = 200
/** A job unanswered for this long has its state read from BullMQ (its reply may have been lost). */
const CHECK_AFTER_MS = 2000

/** Writes waiting for the next flush of one partition (and actor). */
interface Batch {
  partition: number
  actor: string
  items: WriteItem[]
  /** Settles each request with the results of its own items (positions `from` .. `from + count` in the job). */
  waiters: { from: number; count: number; resolve: (r: ItemResult[]) => void; reject: (e: Error) => void }[]
}

/** Items per job at most; a fuller batch is flushed at once. */
const MAX_JOB_ITEMS = 1000

interface Pending {
  partition: number
  since: number
  resolve: (result: JobResult) => void
  reject: (err: Error) => void
}

export class QueueWriter implements Writer {
  private readonly config: Config
  private readonly queues: Queue<WriteJob, JobResult>[]
  private readonly subscriber: RedisClient
  private readonly channel: string
  private readonly pending = new Map<string, Pending>()
  private sampled: number[]
  private readonly timers: NodeJS.Timeout[]
  private readonly subscribed: Promise<unknown>
  private readonly batches = new Map<string, Batch>()
  /** Partitions with a job of this gateway in flight. */
  private readonly busy = new Set<number>()

  constructor(config: Config, connection: RedisClient, keys: Keys) {
    this.config = config
    const prefix = keys.queuePrefix()
    this.queues = Array.from({ length: config.partitions }, (_, p) => new Queue<WriteJob, JobResult>(queueName(p), {
      connection,
      prefix,
      defaultJobOptions: {
        attempts: 1,
        removeOnComplete: { age: 60, count: 5000 },
        removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
      },
    }))
    this.channel = keys.replies(randomUUID())
    this.subscriber = connection.duplicate()
    this.subscriber.on('error', () => {})
    this.subscriber.on('message', (_channel: string, message: string) => this.onReply(JSON.parse(message) as JobReply))
    // After a reconnection, replies sent meanwhile are gone: read the state of every job still waiting.
    this.subscriber.on('ready', () => { void this.checkPending(0) })
    this.subscribed = this.subscriber.subscribe(this.channel)
    this.sampled = this.queues.map(() => 0)
    this.timers = [
      setInterval(() => { void this.sample() }, DEPTH_SAMPLE_MS),
      setInterval(() => { void this.checkPending(CHECK_AFTER_MS) }, CHECK_AFTER_MS / 2),
    ]
    for (const t of this.timers) t.unref()
  }

  /** Resolves once the reply channel is subscribed (a reply cannot be missed after this). */
  async ready(): Promise<void> {
    await this.subscribed
  }

  depths(): readonly number[] {
    return this.sampled
  }

  private async sample(): Promise<void> {
    try {
      this.sampled = await Promise.all(this.queues.map((q) => q.getWaitingCount()))
    } catch {
      // Redis unreachable: keep the last sample; writes will fail on their own.
    }
  }

  private onReply(reply: JobReply): void {
    const waiting = this.pending.get(reply.id)
    if (!waiting) return
    this.pending.delete(reply.id)
    if (reply.result) waiting.resolve(reply.result)
    else if (reply.code && reply.code in ERRORS) waiting.reject(new CatalogError(reply.code as ErrorCode, reply.error, [], ERRORS[reply.code as ErrorCode].status === 503 ? 1 : undefined))
    else waiting.reject(workerFailure(reply.error))
  }

  /** Reads from BullMQ the state of jobs unanswered for `olderThanMs`, settling those that finished. */
  private async checkPending(olderThanMs: number): Promise<void> {
    const now = Date.now()
    for (const [id, waiting] of [...this.pending]) {
      if (now - waiting.since < olderThanMs) continue
      try {
        const job = await this.queues[waiting.partition]!.getJob(id)
        if (!job) continue
        if (job.finishedOn && job.failedReason) this.onReply({ id, error: job.failedReason })
        else if (job.finishedOn && job.returnvalue) this.onReply({ id, result: job.returnvalue })
      } catch {
        // Redis unreachable: try again on the next round.
      }
    }
  }

  /** Waits for job `id`'s reply, at most WRITE_TIMEOUT_MS. */
  private awaitReply(id: string, partition: number): Promise<JobResult> {
    return new Promise<JobResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.pending.delete(id)) return
        reject(new CatalogError('WRITE_NOT_CONFIRMED', `the write (job ${id} on partition ${partition}) was not confirmed within ${this.config.writeTimeoutMs} ms; it may still be applied`, [], 1))
      }, this.config.writeTimeoutMs)
      this.pending.set(id, {
        partition,
        since: Date.now(),
        resolve: (r) => { clearTimeout(timer); resolve(r) },
        reject: (e) => { clearTimeout(timer); reject(e) },
      })
    })
  }

  async submit(items: WriteItem[], actor: string): Promise<ItemResult[]> {
    const byPartition = positionsByPartition(items, this.config.partitions)
    for (const p of byPartition.keys()) {
      // Waiting jobs in the queue plus writes held here for the partition's next job.
      const waiting = this.sampled[p]! + this.buffered(p)
      if (waiting >= this.config.maxQueueDepth) {
        throw new CatalogError('OVERLOADED', `write queue ${p} holds ${waiting} waiting writes (limit ${this.config.maxQueueDepth}); retry later`, [], 1)
      }
    }
    const results: ItemResult[] = new Array(items.length)
    await Promise.all([...byPartition].map(async ([p, positions]) => {
      const own = await this.enqueue(p, actor, positions.map((i) => items[i]!))
      positions.forEach((i, k) => { results[i] = own[k]! })
    }))
    return results
  }

  /** Writes held for the partition's next job. */
  private buffered(partition: number): number {
    let n = 0
    for (const batch of this.batches.values()) if (batch.partition === partition) n += batch.items.length
    return n
  }

  /** Adds items to the partition's open batch (flushed on the next turn); resolves with their results. */
  private enqueue(partition: number, actor: string, items: WriteItem[]): Promise<ItemResult[]> {
    const key = `${partition}\u0000${actor}`
    let batch = this.batches.get(key)
    if (batch && batch.items.length + items.length > MAX_JOB_ITEMS) {
      this.batches.delete(key)
      void this.flush(batch)
      batch = undefined
    }
    if (!batch) {
      batch = { partition, actor, items: [], waiters: [] }
      this.batches.set(key, batch)
      if (!this.busy.has(partition)) setImmediate(() => this.flushPartition(partition))
    }
    const from = batch.items.length
    batch.items.push(...items)
    const target = batch
    return new Promise((resolve, reject) => { target.waiters.push({ from, count: items.length, resolve, reject }) })
  }

  /** Sends the partition's open batches (one job each), unless a job of the partition is in flight. */
  private flushPartition(partition: number): void {
    if (this.busy.has(partition)) return
    for (const [key, batch] of this.batches) {
      if (batch.partition !== partition) continue
      this.batches.delete(key)
      void this.flush(batch)
    }
  }

  /** Adds one job for the batch, settles its requests from the job's reply, then sends what gathered meanwhile. */
  private async flush(batch: Batch): Promise<void> {
    if (batch.waiters.length === 0) return
    this.busy.add(batch.partition)
    try {
      await this.sendJob(batch)
    } finally {
      this.busy.delete(batch.partition)
      this.flushPartition(batch.partition)
    }
  }

  private async sendJob(batch: Batch): Promise<void> {
    const id = randomUUID()
    const reply = this.awaitReply(id, batch.partition)
    try {
      await this.queues[batch.partition]!.add('write', { items: batch.items, actor: batch.actor, time: Date.now(), replyTo: this.channel }, { jobId: id })
      const result = await reply
      for (const w of batch.waiters) w.resolve(result.results.slice(w.from, w.from + w.count))
    } catch (err) {
      this.pending.delete(id)
      reply.catch(() => {})
      for (const w of batch.waiters) w.reject(err as Error)
    }
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t)
    await Promise.all(this.queues.map((q) => q.close()))
    this.subscriber.disconnect()
  }
}

/**
 * A worker's failure without a catalogue code: a store failure (a failover or slot move the worker's retries did
 * not outlast) answers 503 with its code; anything else is the service's fault.
 */
function workerFailure(error: string | undefined): CatalogError {
  const failure = storeFailure(error ?? '')
  return failure
    ? new CatalogError(failure.code, `the write failed in the worker: ${failure.message} (an identical write again is safe)`, [], 1)
    : new CatalogError('INTERNAL', `the write failed in the worker: ${error ?? 'unknown error'}`)
}
