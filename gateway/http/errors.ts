/**
 * The one place an error becomes an HTTP answer: catalogue errors keep their status and code; anything else is a
 * fault of the service (500, logged, no internals leaked) or an unreachable Redis (503).
 */
import { CatalogError, isCatalogError } from '../../model/errors.ts'

/** Converts any thrown value to a catalogue error. */
export function toCatalogError(err: unknown): CatalogError {
  if (isCatalogError(err)) return err
  const message = err instanceof Error ? err.message : String(err)
  if (/ECONNREFUSED|ECONNRESET|Connection is closed|max retries per request|ETIMEDOUT|LOADING|READONLY/i.test(message)) {
    return new CatalogError('UNAVAILABLE', 'the backing store is unavailable; retry later', [], 1)
  }
  return new CatalogError('INTERNAL', 'internal error')
}

/** Whether an error is the service's own fault (worth logging with its stack). */
export function isServiceFault(err: CatalogError): boolean {
  return err.status >= 500 && err.code !== 'OVERLOADED' && err.code !== 'UNAVAILABLE'
}
