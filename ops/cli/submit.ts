/**
 * For the commands that change entities (restore, migrate): write items go through the write queues like the
 * gateway's, and the running workers apply them; only workers change what is stored for an entity.
 */
import { Writer } from '../../gateway/writer.ts'
import { SYSTEM_ACTOR } from '../../model/jobs.ts'
import type { Submit } from '../../model/services/restore.ts'
import type { Model } from '../../model/services/runtime.ts'
import { connectForQueues } from '../../model/store/redis.ts'

/** Runs `fn` with a way to apply write items through the queues (workers must be running to apply them). */
export async function withSubmit<T>(model: Model, fn: (submit: Submit) => Promise<T>): Promise<T> {
  const connection = connectForQueues(model.config, 'svc-cli-queue')
  const writer = new Writer(model.config, connection, model.keys)
  try {
    await writer.ready()
    return await fn((items) => writer.submit(items, SYSTEM_ACTOR))
  } finally {
    await writer.close()
    connection.disconnect()
  }
}
