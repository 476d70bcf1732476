/** Timeseries: the state a stateful ingestion pipeline saved at the end of a run (on its own dataJob). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { TimeseriesBase } from './timeseriesBase.ts'

export const IngestionCheckpointState = Type.Object({
  formatVersion: Type.String(),
  serde: Type.String(),
  payload: Type.Optional(Type.String()),
})

export const DatahubIngestionCheckpoint = Type.Object({
  ...TimeseriesBase,
  pipelineName: Type.String(),
  platformInstanceId: Type.String(),
  config: Type.String(),
  state: IngestionCheckpointState,
  runId: Type.String(),
})

export const datahubIngestionCheckpoint = defineAspect('datahubIngestionCheckpoint', 'com.svc.datajob.datahub.DatahubIngestionCheckpoint', DatahubIngestionCheckpoint, { timeseries: true })
