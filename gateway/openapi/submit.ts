/**
 * How v3 routes hand their items to the one write path (gateway/http/writes.ts): synchronously (answered once
 * applied; the first item a worker refused becomes the answer's error) or asynchronously (answered 202 once
 * queued). Async writes of a trace are remembered under its id, so write tracing can say they are still pending.
 */
import type { WriteItem } from '../../model/jobs.ts'
import { WRITE_RECORD_SECONDS } from '../../model/jobs.ts'
import type { GatewayDeps } from '../deps.ts'
import { checkHardDelete } from '../http/auth.ts'
import type { RouteRequest } from '../http/route.ts'
import { itemError, submit } from '../http/writes.ts'

/**
 * Submits `items` for the caller; resolves once applied (sync) or queued (async). A hard delete among them (an
 * entity delete, or a delete of the key aspect) needs an admin token when AUTH_ENABLED (403 before anything is sent).
 */
export async function writeV3(deps: GatewayDeps, items: WriteItem[], caller: Pick<RouteRequest, 'actor' | 'granted'>, asynchronous: boolean, traceId: string): Promise<void> {
  if (items.length === 0) return
  for (const item of items) checkHardDelete(deps.model.config, deps.model.registry, caller, item, 'urn')
  const done = await submit(deps, items, caller.actor, asynchronous)
  if (done.mode === 'async') {
    const key = deps.model.keys.traceWrites(traceId)
    await deps.model.redis.multi().sadd(key, ...done.queued.map((q) => q.id)).expire(key, WRITE_RECORD_SECONDS).exec()
    return
  }
  const refused = done.results.find((r) => r.error)
  if (refused?.error) throw itemError(refused.error)
}
