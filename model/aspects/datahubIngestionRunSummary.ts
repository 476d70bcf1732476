/**
 * Timeseries: the summary of one run of an ingestion pipeline (on its own dataJob). Its many counters are kept as
 * sent; the identifying fields are checked.
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { JobStatus } from './dataJobInfo.ts'
import { TimeseriesBase } from './timeseriesBase.ts'

export const DatahubIngestionRunSummary = Type.Object({
  ...TimeseriesBase,
  pipelineName: Type.String(),
  platformInstanceId: Type.String(),
  runId: Type.String(),
  runStatus: JobStatus,
}, { additionalProperties: true })

export const datahubIngestionRunSummary = defineAspect('datahubIngestionRunSummary', 'com.svc.datajob.datahub.DatahubIngestionRunSummary', DatahubIngestionRunSummary, { timeseries: true })
