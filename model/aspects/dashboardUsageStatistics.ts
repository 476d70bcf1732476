/** Timeseries: how often a dashboard was viewed, run and favorited, and by whom. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { TimeseriesBase } from './timeseriesBase.ts'
import { DashboardUserUsageCounts } from './usageCounts.ts'

export const DashboardUsageStatistics = Type.Object({
  ...TimeseriesBase,
  viewsCount: Type.Optional(Type.Integer()),
  executionsCount: Type.Optional(Type.Integer()),
  uniqueUserCount: Type.Optional(Type.Integer()),
  userCounts: Type.Optional(Type.Array(DashboardUserUsageCounts)),
  favoritesCount: Type.Optional(Type.Integer()),
  lastViewedAt: Type.Optional(Type.Integer()),
})

export const dashboardUsageStatistics = defineAspect('dashboardUsageStatistics', 'com.svc.dashboard.DashboardUsageStatistics', DashboardUsageStatistics, { timeseries: true })
