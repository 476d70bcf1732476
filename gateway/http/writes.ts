/**
 * How write routes hand items over: synchronously (answered once applied; an item the worker refused becomes its
 * catalogue error) or, with `"async": "true"`, once durably queued, with the write ids to ask `GET /writes/<id>`.
 */
import { Type } from 'typebox'
import { CatalogError, fail, type ErrorCode } from '../../model/errors.ts'
import type { ItemError, ItemResult, WriteItem } from '../../model/jobs.ts'
import type { QueuedWrite } from '../writer.ts'
import type { GatewayDeps } from '../deps.ts'

/** The body member upstream clients send: "true" / "false" (booleans accepted too); absent means false. */
export const AsyncFlag = Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Boolean()], {
  description: '"true": answer once the write is queued (ask GET /writes/<writeId> for its outcome); "false" (default): once applied',
}))

/** Whether a body asks for an asynchronous write. */
export function isAsync(body: unknown): boolean {
  const flag = (body as { async?: unknown } | undefined)?.async
  if (flag === undefined || flag === 'false' || flag === false) return false
  if (flag === 'true' || flag === true) return true
  throw fail('INVALID_REQUEST', 'async must be "true" or "false"', [{ path: 'async', message: `got ${JSON.stringify(flag)}` }])
}

/** The catalogue error a worker's refusal of an item stands for. */
export function itemError(error: ItemError): CatalogError {
  return new CatalogError(error.code as ErrorCode, error.message, error.details)
}

/**
 * What a write result says of the aspect fields its model does not know (kept as sent under UNKNOWN_FIELDS=keep):
 * `{unknownFields: [paths]}`, or nothing when there were none.
 */
export function unknownFieldsReport(paths: readonly string[] | undefined): { unknownFields?: string[] } {
  return paths && paths.length > 0 ? { unknownFields: [...paths] } : {}
}

/** What one submission came to: per-item results (sync) or the queued writes (async). */
export type Submitted = { mode: 'sync'; results: ItemResult[] } | { mode: 'async'; queued: QueuedWrite[]; writeIdOf: (position: number) => string }

/** Submits `items` as the body asks (sync or async). */
export async function submit(deps: GatewayDeps, items: WriteItem[], actor: string, asynchronous: boolean): Promise<Submitted> {
  if (!asynchronous) return { mode: 'sync', results: await deps.writer.submit(items, actor) }
  const queued = await deps.writer.submit(items, actor, { wait: false })
  const ids = new Map<number, string>()
  for (const q of queued) for (const i of q.positions) ids.set(i, q.id)
  return { mode: 'async', queued, writeIdOf: (i) => ids.get(i)! }
}
