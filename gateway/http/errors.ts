/**
 * The one place an error becomes an HTTP answer: catalogue errors keep their status and code; anything else is a
 * fault of the service (500, logged, no internals leaked) or a store failure (503: Redis unreachable, a cluster
 * failing over or moving slots).
 */
import { CatalogError, isCatalogError } from '../../model/errors.ts'
import { storeFailure } from '../../model/store/storeFailures.ts'

/** Converts any thrown value to a catalogue error. */
export function toCatalogError(err: unknown): CatalogError {
  if (isCatalogError(err)) return err
  const message = err instanceof Error ? err.message : String(err)
  // A failover or slot move (model/store/storeFailures.ts): 503 with its code and Retry-After.
  const failure = storeFailure(message)
  if (failure) return new CatalogError(failure.code, failure.message, [], 1)
  return new CatalogError('INTERNAL', 'internal error')
}

/** Whether an error is the service's own fault (worth logging with its stack). */
export function isServiceFault(err: CatalogError): boolean {
  return err.status >= 500 && !['OVERLOADED', 'UNAVAILABLE', 'CLUSTER_DOWN', 'SLOT_MOVING'].includes(err.code)
}
