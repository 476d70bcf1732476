/**
 * The gateway's side of the write path: items go to their partition's queue (model/services/writeQueues.ts), one job per
 * partition. With `wait` (the default) the request waits until a worker has applied them, and the follow-up jobs
 * that worker queued (the reference cleanup of a hard delete, workers/followUps.ts), so an acknowledged write is
 * already readable and searchable; without it (`"async": "true"`) it is answered once BullMQ holds the jobs, with
 * the write ids `GET /writes/<id>` answers about. Queues deeper than MAX_QUEUE_DEPTH refuse new writes with
 * 503 + Retry-After.
 *
 * Waited writes for one partition (from one actor) that arrive while this gateway's previous job for that
 * partition is still being applied share the next job: BullMQ's cost per job is then paid once for all of them,
 * and nothing waits longer than it would have in the queue (a partition applies one job at a time anyway). Items
 * keep their order, so writes to one entity still apply in arrival order.
 *
 * Completions come back on this gateway's own reply channel (the worker publishes each job's result there): one
 * message per job, where BullMQ's event stream would have every gateway read every event of every job. A message
 * lost while the subscriber reconnects is caught by reading the job's state from BullMQ.
 *
 * Every job id names its partition (`<partition>-<uuid>`), so `GET /writes/<id>` finds the job's queue: queued or
 * applying from BullMQ; once finished, the worker's record of the outcome (workers/writeRecords.ts) for
 * WRITE_RECORD_SECONDS, BullMQ's finished job (kept about a minute) when that record could not be written.
 */
import { randomUUID } from 'node:crypto'
import type { Config } from '../model/config.ts'
import { CatalogError, ERRORS, fail, type ErrorCode } from '../model/errors.ts'
import { positionsByPartition, WRITE_RECORD_SECONDS, type FollowUp, type ItemResult, type JobReply, type JobResult, type WriteItem, type WriteOutcome } from '../model/jobs.ts'
import type { Keys } from '../model/store/keys.ts'
import type { RedisClient } from '../model/store/redis.ts'
import { storeFailure } from '../model/store/storeFailures.ts'
import { WriteQueues } from '../model/services/writeQueues.ts'

/** Where the items of an unwaited request went: one write id per partition, and which items (by position) it carries. */
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

const DEPTH_SAMPLE_MS = 200
/**
 * A job unanswered for this long has its state read from BullMQ (its reply may have been lost: a message published
 * as a cluster node fails is). Two fields of the job's hash per check, and at most one waited job per partition is
 * in flight from a gateway, so checking often is cheap.
 */
const CHECK_AFTER_MS = 500
/** Items per job at most; a fuller batch is flushed at once. */
const MAX_JOB_ITEMS = 1000
const ID = /^(\d+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Waited writes gathered for the next job of one partition (and actor). */
interface Batch {
  partition: number
  actor: string
  items: WriteItem[]
  /** Settles each request with the results of its own items (positions `from` .. `from + count` in the job). */
  waiters: { from: number; count: number; resolve: (r: ItemResult[]) => void; reject: (e: Error) => void }[]
}

/** A job whose reply is awaited. */
interface Pending {
  partition: number
  since: number
  promise: Promise<JobResult>
  resolve: (result: JobResult) => void
  reject: (err: Error) => void
  timer: NodeJS.Timeout
  /** Whether BullMQ acknowledged the job's addition (a follow-up: the worker added it before replying). */
  added: boolean
}

export class Writer {
  private readonly config: Config
  private readonly connection: RedisClient
  private readonly keys: Keys
  private readonly queues: WriteQueues
  private readonly subscriber: RedisClient
  private readonly channel: string
  private readonly pending = new Map<string, Pending>()
  private sampled: number[]
  private readonly timers: NodeJS.Timeout[]
  private readonly subscribed: Promise<unknown>
  private readonly batches = new Map<string, Batch>()
  /** Partitions with a waited job of this gateway in flight. */
  private readonly busy = new Set<number>()

  constructor(config: Config, connection: RedisClient, keys: Keys) {
    this.config = config
    this.connection = connection
    this.keys = keys
    this.queues = new WriteQueues(connection, keys, config.partitions)
    this.channel = keys.replies(randomUUID())
    this.subscriber = connection.duplicate()
    this.subscriber.on('error', () => {})
    this.subscriber.on('message', (_channel: string, message: string) => this.onReply(JSON.parse(message) as JobReply))
    // After a reconnection, replies sent meanwhile are gone: read the state of every job still waiting.
    this.subscriber.on('ready', () => { void this.checkPending(0) })
    this.subscribed = this.subscriber.subscribe(this.channel)
    this.sampled = Array.from({ length: config.partitions }, () => 0)
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

  /** Workers connected to the write queues (partition 0's: every worker consumes every partition). */
  workersCount(): Promise<number> {
    return this.queues.queue(0).getWorkersCount()
  }

  /** Waiting jobs per partition (last sample). */
  depths(): readonly number[] {
    return this.sampled
  }

  /**
   * Applies `items` (in order per entity). `wait` (default): resolves with each item's result once all are applied
   * and their follow-ups too; otherwise once queued, with the write ids.
   */
  submit(items: WriteItem[], actor: string, options?: { wait: true }): Promise<ItemResult[]>
  submit(items: WriteItem[], actor: string, options: { wait: false }): Promise<QueuedWrite[]>
  async submit(items: WriteItem[], actor: string, { wait }: { wait: boolean } = { wait: true }): Promise<ItemResult[] | QueuedWrite[]> {
    const byPartition = positionsByPartition(items, this.config.partitions)
    for (const p of byPartition.keys()) {
      // Waiting jobs in the queue plus writes held here for the partition's next job.
      const waiting = this.sampled[p]! + this.buffered(p)
      if (waiting >= this.config.maxQueueDepth) {
        throw new CatalogError('OVERLOADED', `write queue ${p} holds ${waiting} waiting writes (limit ${this.config.maxQueueDepth}); retry later`, [], 1)
      }
    }
    if (!wait) {
      return Promise.all([...byPartition].map(async ([p, positions]) => {
        const id = jobId(p)
        await this.queues.add(p, { items: positions.map((i) => items[i]!), actor, time: Date.now() }, id)
        return { id, positions }
      }))
    }
    const results: ItemResult[] = new Array(items.length)
    await Promise.all([...byPartition].map(async ([p, positions]) => {
      const own = await this.enqueue(p, actor, positions.map((i) => items[i]!))
      positions.forEach((i, k) => { results[i] = own[k]! })
    }))
    return results
  }

  /** The state of write `id`; 404 JOB_NOT_FOUND when unknown or expired. */
  async status(id: string): Promise<WriteStatus> {
    const partition = Number(ID.exec(id)?.[1] ?? NaN)
    const notFound = () => fail('JOB_NOT_FOUND', `no write ${JSON.stringify(id.slice(0, 100))} (unknown, or its record has expired after ${WRITE_RECORD_SECONDS} s)`, [{ path: 'id', message: 'not found' }])
    if (!(partition < this.config.partitions)) throw notFound()
    const recorded = await this.connection.get(this.keys.writeRecord(id))
    if (recorded) return { id, ...(JSON.parse(recorded) as WriteOutcome) }
    const queue = this.queues.queue(partition)
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
    for (const t of this.timers) clearInterval(t)
    await this.queues.close()
    this.subscriber.disconnect()
  }

  private async sample(): Promise<void> {
    try {
      this.sampled = await this.queues.waitingCounts()
    } catch {
      // Redis unreachable: keep the last sample; writes will fail on their own.
    }
  }

  private onReply(reply: JobReply): void {
    const waiting = this.pending.get(reply.id)
    if (!waiting) return
    this.pending.delete(reply.id)
    clearTimeout(waiting.timer)
    if (reply.result) {
      // Awaited from now on: their replies may be in the very next message.
      for (const f of reply.result.followUps ?? []) this.expect(f)
      waiting.resolve(reply.result)
    } else if (reply.code && reply.code in ERRORS) {
      waiting.reject(new CatalogError(reply.code as ErrorCode, reply.error, [], ERRORS[reply.code as ErrorCode].status === 503 ? 1 : undefined))
    } else {
      waiting.reject(workerFailure(reply.error))
    }
  }

  /** Reads from BullMQ the state of jobs unanswered for `olderThanMs`, settling those that finished. */
  private async checkPending(olderThanMs: number): Promise<void> {
    const now = Date.now()
    for (const [id, waiting] of [...this.pending]) {
      if (now - waiting.since < olderThanMs) continue
      try {
        const progress = await this.queues.progress(waiting.partition, id)
        if (progress === 'gone') {
          // Added, unanswered, and gone: its queue's master failed before a replica had it (finished jobs are kept
          // a minute). Whether a worker took it before the failover cannot be known from here.
          if (waiting.added && this.pending.delete(id)) {
            clearTimeout(waiting.timer)
            waiting.reject(new CatalogError('WRITE_NOT_CONFIRMED', `the write (job ${id} on partition ${waiting.partition}) was lost from its queue when the queue's Redis node failed over; it may or may not have been applied: read the entity, or send the write again`, [], 1))
          }
          continue
        }
        const job = progress === 'finished' ? await this.queues.queue(waiting.partition).getJob(id) : undefined
        if (job?.finishedOn && job.failedReason) this.onReply({ id, error: job.failedReason })
        else if (job?.finishedOn && job.returnvalue) this.onReply({ id, result: job.returnvalue })
      } catch {
        // Redis unreachable: try again on the next round.
      }
    }
  }

  /** The reply of job `id` (registered once; at most WRITE_TIMEOUT_MS). */
  private expect({ id, partition }: FollowUp, added = true): Promise<JobResult> {
    const known = this.pending.get(id)
    if (known) return known.promise
    let settle!: Pick<Pending, 'resolve' | 'reject'>
    const promise = new Promise<JobResult>((resolve, reject) => { settle = { resolve, reject } })
    promise.catch(() => {}) // whoever awaits it sees the rejection; an unawaited follow-up must not crash the process
    const timer = setTimeout(() => {
      if (!this.pending.delete(id)) return
      settle.reject(new CatalogError('WRITE_NOT_CONFIRMED', `the write (job ${id} on partition ${partition}) was not confirmed within ${this.config.writeTimeoutMs} ms; it may still be applied`, [], 1))
    }, this.config.writeTimeoutMs)
    this.pending.set(id, { partition, since: Date.now(), promise, timer, added, ...settle })
    return promise
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
    const id = jobId(batch.partition)
    const reply = this.expect({ id, partition: batch.partition }, false)
    try {
      await this.queues.add(batch.partition, { items: batch.items, actor: batch.actor, time: Date.now(), replyTo: this.channel }, id)
      const pending = this.pending.get(id)
      if (pending) pending.added = true
      const { results, followUps = [] } = await reply
      // The job is acknowledged once what it left to others (the edges to what it deleted) is applied too.
      await Promise.all(followUps.map((f) => this.expect(f)))
      for (const w of batch.waiters) w.resolve(results.slice(w.from, w.from + w.count))
    } catch (err) {
      const waiting = this.pending.get(id)
      if (waiting) clearTimeout(waiting.timer)
      this.pending.delete(id)
      for (const w of batch.waiters) w.reject(err as Error)
    }
  }
}

/** A new job id on `partition`. */
function jobId(partition: number): string {
  return `${partition}-${randomUUID()}`
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
