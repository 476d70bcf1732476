/** Timeseries: one evaluation of an assertion on a batch of its entity, and its result. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, Urn } from './common.ts'
import { TimeseriesBase } from './timeseriesBase.ts'

export const AssertionResult = Type.Object({
  type: Type.Enum(['INIT', 'SUCCESS', 'FAILURE', 'ERROR']),
  severity: Type.Optional(Type.String()),
  rowCount: Type.Optional(Type.Integer()),
  missingCount: Type.Optional(Type.Integer()),
  unexpectedCount: Type.Optional(Type.Integer()),
  actualAggValue: Type.Optional(Type.Number()),
  nativeResults: Type.Optional(StringMap),
  externalUrl: Type.Optional(Type.String()),
  error: Type.Optional(Type.Object({ type: Type.String(), properties: Type.Optional(StringMap) })),
})

export const BatchSpec = Type.Object({
  customProperties: Type.Optional(StringMap),
  nativeBatchId: Type.Optional(Type.String()),
  query: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Integer()),
})

export const AssertionRunEvent = Type.Object({
  ...TimeseriesBase,
  runId: Type.String(),
  assertionUrn: Urn(),
  asserteeUrn: Urn(),
  batchSpec: Type.Optional(BatchSpec),
  status: Type.Enum(['COMPLETE']),
  result: Type.Optional(AssertionResult),
  runtimeContext: Type.Optional(StringMap),
})

export const assertionRunEvent = defineAspect('assertionRunEvent', 'com.svc.assertion.AssertionRunEvent', AssertionRunEvent, { timeseries: true })
