/** Timeseries: the status of a run (STARTED, then COMPLETE with a result). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { TimeseriesBase } from './timeseriesBase.ts'

export const DataProcessInstanceRunResult = Type.Object({
  type: Type.Enum(['SUCCESS', 'FAILURE', 'SKIPPED', 'UP_FOR_RETRY']),
  nativeResultType: Type.String(),
})

export const DataProcessInstanceRunEvent = Type.Object({
  ...TimeseriesBase,
  externalUrl: Type.Optional(Type.String()),
  status: Type.Enum(['STARTED', 'COMPLETE']),
  attempt: Type.Optional(Type.Integer()),
  result: Type.Optional(DataProcessInstanceRunResult),
  durationMillis: Type.Optional(Type.Integer()),
})

export const dataProcessInstanceRunEvent = defineAspect('dataProcessInstanceRunEvent', 'com.svc.dataprocess.DataProcessInstanceRunEvent', DataProcessInstanceRunEvent, { timeseries: true })
