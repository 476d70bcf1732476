/** What a dashboard is; each chart is a Contains edge, each dataset a Consumes edge. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AccessLevel } from './chartInfo.ts'
import { ChangeAuditStamps, StringMap, Urn } from './common.ts'

export const DashboardInfo = Type.Object({
  customProperties: Type.Optional(StringMap),
  externalUrl: Type.Optional(Type.String()),
  title: Type.String({ searchable: { field: 'title', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } }),
  charts: Type.Optional(Type.Array(Urn({ relationship: { name: 'Contains', entityTypes: ['chart'] } }))),
  datasets: Type.Optional(Type.Array(Urn({ relationship: { name: 'Consumes', entityTypes: ['dataset'] } }))),
  lastModified: ChangeAuditStamps,
  dashboardUrl: Type.Optional(Type.String()),
  access: Type.Optional(AccessLevel),
  lastRefreshed: Type.Optional(Type.Integer()),
})

export const dashboardInfo = defineAspect('dashboardInfo', 'com.svc.dashboard.DashboardInfo', DashboardInfo)
