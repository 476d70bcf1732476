/** What a dashboard is; each chart is a Contains edge, each dataset a Consumes edge. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AccessLevel } from './chartInfo.ts'
import { ChangeAuditStamps, EdgeTo, StringMap, Urn } from './common.ts'

export const DashboardInfo = Type.Object({
  customProperties: Type.Optional(StringMap),
  externalUrl: Type.Optional(Type.String()),
  title: Type.String({ searchable: { field: 'title', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } }),
  charts: Type.Optional(Type.Array(Urn({ relationship: { name: 'Contains', entityTypes: ['chart'], lineage: 'upstream' } }))),
  datasets: Type.Optional(Type.Array(Urn({ relationship: { name: 'Consumes', entityTypes: ['dataset'], lineage: 'upstream' } }))),
  chartEdges: Type.Optional(Type.Array(EdgeTo({ relationship: { name: 'Contains', entityTypes: ['chart'], lineage: 'upstream' } }))),
  datasetEdges: Type.Optional(Type.Array(EdgeTo({ relationship: { name: 'Consumes', entityTypes: ['dataset'], lineage: 'upstream' } }))),
  dashboards: Type.Optional(Type.Array(EdgeTo({ relationship: { name: 'DashboardContainsDashboard', entityTypes: ['dashboard'], lineage: 'upstream' } }))),
  lastModified: ChangeAuditStamps,
  dashboardUrl: Type.Optional(Type.String()),
  access: Type.Optional(AccessLevel),
  lastRefreshed: Type.Optional(Type.Integer()),
})

export const dashboardInfo = defineAspect('dashboardInfo', 'com.svc.dashboard.DashboardInfo', DashboardInfo)
