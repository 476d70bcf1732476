/** How an aspect version is stored: the value plus who wrote it, when, and with which system metadata. */
import type { SystemMetadata } from '../jobs.ts'

export interface AuditStamp {
  time: number
  actor: string
}

export interface Envelope {
  value: unknown
  created: AuditStamp
  systemMetadata?: SystemMetadata
}

/** The run id a default client sends when it has none (upstream's value); such writes are not recorded as runs. */
export const DEFAULT_RUN_ID = 'no-run-id-provided'

/** System metadata as stored: lastObserved filled in when absent or 0, runId defaulted. */
export function normalizeSystemMetadata(meta: SystemMetadata | undefined, now: number): SystemMetadata {
  const result: SystemMetadata = { ...(meta ?? {}) }
  if (!result.lastObserved) result.lastObserved = now
  if (!result.runId) result.runId = DEFAULT_RUN_ID
  return result
}
