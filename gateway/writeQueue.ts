/**
 * The gateway's side of the write path: items go to their partition's queue (one job per partition per request),
 * and the request waits until a worker has applied them, so an acknowledged write is already readable and
 * searchable. Queues deeper than MAX_QUEUE_DEPTH refuse new writes with 503 + Retry-After.
 */
import { randomUUID } from 'node:crypto'
import { Queue, QueueEvents } from 'bullmq'
import type { Redis } from 'ioredis'
import type { Config } from '../model/config.ts'
import { CatalogError } from '../model/errors.ts'
import { partitionOf, queueName, type ItemResult, type JobResult, type WriteItem, type WriteJob } from '../model/jobs.ts'
import type { Keys } from '../model/store/keys.ts'

/** What routes use to write. */
export interface Writer {
  /** Applies `items` (in order per entity) and resolves once all are applied. */
  submit(items: WriteItem[], actor: string): Promise<ItemResult[]>
  /** Waiting jobs per partition (last sample). */
  depths(): readonly number[]
  close(): Promise<void>
}

const DEPTH_SAMPLE_MS = 200

export class QueueWriter implements Writer {
  private readonly config: Config
  private readonly queues: Queue<WriteJob, JobResult>[]
  private readonly events: QueueEvents[]
  private readonly eventConnections: Redis[]
  private sampled: number[]
  private readonly timer: NodeJS.Timeout

  constructor(config: Config, connection: Redis, keys: Keys) {
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
    this.eventConnections = this.queues.map(() => connection.duplicate().on('error', () => {}))
    this.events = this.queues.map((_, p) => new QueueEvents(queueName(p), { connection: this.eventConnections[p]!, prefix }))
    this.sampled = this.queues.map(() => 0)
    this.timer = setInterval(() => { void this.sample() }, DEPTH_SAMPLE_MS)
    this.timer.unref()
  }

  /** Resolves once every QueueEvents listener is subscribed (a completion cannot be missed after this). */
  async ready(): Promise<void> {
    await Promise.all(this.events.map((e) => e.waitUntilReady()))
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

  async submit(items: WriteItem[], actor: string): Promise<ItemResult[]> {
    const byPartition = new Map<number, number[]>()
    items.forEach((item, i) => {
      const p = partitionOf(item.urn, this.config.partitions)
      let list = byPartition.get(p)
      if (!list) byPartition.set(p, (list = []))
      list.push(i)
    })
    for (const p of byPartition.keys()) {
      if (this.sampled[p]! >= this.config.maxQueueDepth) {
        throw new CatalogError('OVERLOADED', `write queue ${p} holds ${this.sampled[p]} waiting jobs (limit ${this.config.maxQueueDepth}); retry later`, [], 1)
      }
    }
    const time = Date.now()
    const results: ItemResult[] = new Array(items.length)
    await Promise.all([...byPartition].map(async ([p, positions]) => {
      const job = await this.queues[p]!.add('write', { items: positions.map((i) => items[i]!), actor, time }, { jobId: randomUUID() })
      let result: JobResult
      try {
        result = await job.waitUntilFinished(this.events[p]!, this.config.writeTimeoutMs)
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err)
        if (/timed out/i.test(message)) {
          throw new CatalogError('WRITE_NOT_CONFIRMED', `the write (job ${job.id} on partition ${p}) was not confirmed within ${this.config.writeTimeoutMs} ms; it may still be applied`, [], 1)
        }
        throw new CatalogError('INTERNAL', `the write failed in the worker: ${message}`)
      }
      positions.forEach((i, k) => { results[i] = result.results[k]! })
    }))
    return results
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await Promise.all([...this.events.map((e) => e.close()), ...this.queues.map((q) => q.close())])
    for (const c of this.eventConnections) c.disconnect()
  }
}
