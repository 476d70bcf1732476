/** Timeseries: how much a dataset was used in a time bucket. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'
import { TimeseriesBase } from './timeseriesBase.ts'

export const DatasetUsageStatistics = Type.Object({
  ...TimeseriesBase,
  uniqueUserCount: Type.Optional(Type.Integer()),
  totalSqlQueries: Type.Optional(Type.Integer()),
  topSqlQueries: Type.Optional(Type.Array(Type.String())),
  userCounts: Type.Optional(Type.Array(Type.Object({
    user: Urn(),
    count: Type.Integer(),
    userEmail: Type.Optional(Type.String()),
  }))),
  fieldCounts: Type.Optional(Type.Array(Type.Object({ fieldPath: Type.String(), count: Type.Integer() }))),
})

export const datasetUsageStatistics = defineAspect(
  'datasetUsageStatistics', 'com.svc.dataset.DatasetUsageStatistics', DatasetUsageStatistics, { timeseries: true })
