/**
 * The outcome of each asynchronous write, kept for WRITE_RECORD_SECONDS under Keys.writeRecord(<job id>) so that
 * `GET /writes/<id>` can answer long after BullMQ trimmed the finished job (it keeps finished jobs about a minute).
 * Synchronous writes are answered on their reply channel instead and leave no record.
 */
import { WRITE_RECORD_SECONDS, type JobReply, type WriteOutcome } from '../model/jobs.ts'
import type { Keys } from '../model/store/keys.ts'
import type { RedisClient } from '../model/store/redis.ts'

export async function recordOutcome(redis: RedisClient, keys: Keys, id: string, reply: Omit<JobReply, 'id'>): Promise<void> {
  const outcome: WriteOutcome = reply.result ? { state: 'applied', results: reply.result.results } : { state: 'failed', error: reply.error ?? 'failed' }
  await redis.set(keys.writeRecord(id), JSON.stringify(outcome), 'EX', WRITE_RECORD_SECONDS)
}
