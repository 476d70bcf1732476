/**
 * Trace ids of v3 writes, pure: taken from the W3C `traceparent` header (`00-<32 hex>-<16 hex>-<2 hex>`) when a
 * client sends one, else made up; kept in each written aspect's system metadata as upstream keeps it
 * (`properties.telemetryTraceId`), and answered in the response's `traceparent` header.
 */
import { randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { SystemMetadata } from '../../model/jobs.ts'

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/i

/** The trace id of a request: its traceparent's, or a new one. */
export function traceIdOf(headers: IncomingHttpHeaders): string {
  const header = headers.traceparent
  const match = TRACEPARENT.exec((Array.isArray(header) ? header[0] : header)?.trim() ?? '')
  return match && !/^0+$/.test(match[1]!) ? match[1]!.toLowerCase() : randomBytes(16).toString('hex')
}

/** The traceparent header answering a request of trace `traceId`. */
export const traceparentOf = (traceId: string): string => `00-${traceId}-${randomBytes(8).toString('hex')}-01`

/** System metadata carrying `traceId` (one the client already put there wins). */
export function withTraceId(meta: SystemMetadata | undefined, traceId: string): SystemMetadata {
  const properties = (meta?.properties ?? {}) as Record<string, unknown>
  if (typeof properties.telemetryTraceId === 'string' && properties.telemetryTraceId !== '') return meta!
  return { ...(meta ?? {}), properties: { ...properties, telemetryTraceId: traceId } }
}

/** The trace id a stored aspect was written under, if any. */
export function traceIdOfMetadata(meta: SystemMetadata | undefined): string | undefined {
  const id = (meta?.properties as Record<string, unknown> | undefined)?.telemetryTraceId
  return typeof id === 'string' ? id : undefined
}
