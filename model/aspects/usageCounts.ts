/** Per-user counts of the usage timeseries aspects of charts, dashboards and queries. */
import { Type } from 'typebox'
import { Urn } from './common.ts'

export const ChartUserUsageCounts = Type.Object({
  user: Urn(),
  viewsCount: Type.Optional(Type.Integer()),
})

export const DashboardUserUsageCounts = Type.Object({
  user: Urn(),
  viewsCount: Type.Optional(Type.Integer()),
  executionsCount: Type.Optional(Type.Integer()),
  usageCount: Type.Optional(Type.Integer()),
  userEmail: Type.Optional(Type.String()),
})

export const DatasetUserUsageCounts = Type.Object({
  user: Urn(),
  count: Type.Integer(),
  userEmail: Type.Optional(Type.String()),
})
