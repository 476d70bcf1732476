/**
 * What an aspect is to the registry: its short name, fully qualified record name, schema, and whether it is a
 * timeseries aspect (stored by timestampMillis, never versioned).
 */
import type { TSchema } from 'typebox'

export interface AspectSpec {
  /** Short name used in proposals and reads (`ownership`). */
  readonly name: string
  /** Fully qualified record name used in snapshots and unions (`com.svc.common.Ownership`). */
  readonly recordName: string
  /** TypeBox / JSON Schema of the value, with search and relationship annotations. */
  readonly schema: TSchema
  readonly timeseries?: boolean
}

/** Declares an aspect; one call per file under model/aspects/. */
export function defineAspect(name: string, recordName: string, schema: TSchema, options: { timeseries?: boolean } = {}): AspectSpec {
  return { name, recordName, schema, timeseries: options.timeseries ?? false }
}
