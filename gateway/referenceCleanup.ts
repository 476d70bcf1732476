/**
 * Hard delete across shards, for synchronous writes: once a write removed entities, the entities pointing to them
 * get their `dropEdgesTo` items (model/services/references.ts) through the queues, before the delete is answered. (An
 * asynchronous write's cleanup is queued by the worker that applied it.)
 */
import { SYSTEM_ACTOR, type ItemResult, type WriteItem } from '../model/jobs.ts'
import { cleanupAfter } from '../model/services/references.ts'
import type { Model } from '../model/services/runtime.ts'
import type { Writer } from './writeQueue.ts'

/** `inner`, plus the reference cleanup after every write that removed an entity. */
export function withReferenceCleanup(inner: Writer, model: Model): Writer {
  return {
    async submit(items: WriteItem[], actor: string): Promise<ItemResult[]> {
      const results = await inner.submit(items, actor)
      const cleanup = await cleanupAfter(model, items, results)
      if (cleanup.length > 0) await inner.submit(cleanup, SYSTEM_ACTOR)
      return results
    },
    depths: () => inner.depths(),
    close: () => inner.close(),
  }
}
