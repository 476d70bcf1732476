/** Timeseries: how often a query ran, what it cost, and who ran it. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { TimeseriesBase } from './timeseriesBase.ts'
import { DatasetUserUsageCounts } from './usageCounts.ts'

export const QueryUsageStatistics = Type.Object({
  ...TimeseriesBase,
  queryCount: Type.Optional(Type.Integer()),
  queryCost: Type.Optional(Type.Number()),
  lastExecutedAt: Type.Optional(Type.Integer()),
  uniqueUserCount: Type.Optional(Type.Integer()),
  userCounts: Type.Optional(Type.Array(DatasetUserUsageCounts)),
})

export const queryUsageStatistics = defineAspect('queryUsageStatistics', 'com.svc.query.QueryUsageStatistics', QueryUsageStatistics, { timeseries: true })
