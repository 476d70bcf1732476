/** Timeseries: an operation (insert, update ...) observed on a dataset. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, Urn } from './common.ts'
import { TimeseriesBase } from './timeseriesBase.ts'

export const Operation = Type.Object({
  ...TimeseriesBase,
  actor: Type.Optional(Urn()),
  operationType: Type.Enum(['INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'DROP', 'CUSTOM', 'UNKNOWN']),
  customOperationType: Type.Optional(Type.String()),
  numAffectedRows: Type.Optional(Type.Integer()),
  affectedDatasets: Type.Optional(Type.Array(Urn())),
  sourceType: Type.Optional(Type.Enum(['DATA_PROCESS', 'DATA_PLATFORM'])),
  customProperties: Type.Optional(StringMap),
  lastUpdatedTimestamp: Type.Integer(),
  queries: Type.Optional(Type.Array(Urn())),
})

export const operation = defineAspect('operation', 'com.svc.common.Operation', Operation, { timeseries: true })
