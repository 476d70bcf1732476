/** Timeseries: how often a chart was viewed, and by whom. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { TimeseriesBase } from './timeseriesBase.ts'
import { ChartUserUsageCounts } from './usageCounts.ts'

export const ChartUsageStatistics = Type.Object({
  ...TimeseriesBase,
  viewsCount: Type.Optional(Type.Integer()),
  uniqueUserCount: Type.Optional(Type.Integer()),
  userCounts: Type.Optional(Type.Array(ChartUserUsageCounts)),
})

export const chartUsageStatistics = defineAspect('chartUsageStatistics', 'com.svc.chart.ChartUsageStatistics', ChartUsageStatistics, { timeseries: true })
