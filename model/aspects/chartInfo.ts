/** What a chart shows; each input dataset is a Consumes edge. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { ChangeAuditStamps, EdgeTo, StringMap, UnionOf, Urn } from './common.ts'

export const AccessLevel = Type.Enum(['PUBLIC', 'PRIVATE'])

export const ChartInfo = Type.Object({
  customProperties: Type.Optional(StringMap),
  externalUrl: Type.Optional(Type.String()),
  title: Type.String({ searchable: { field: 'title', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } }),
  lastModified: ChangeAuditStamps,
  chartUrl: Type.Optional(Type.String()),
  inputs: Type.Optional(Type.Array(UnionOf({
    string: Urn({ relationship: { name: 'Consumes', entityTypes: ['dataset'], lineage: 'upstream' }, searchable: { field: 'inputs', type: 'URN' } }),
  }))),
  inputEdges: Type.Optional(Type.Array(EdgeTo({
    relationship: { name: 'Consumes', entityTypes: ['dataset'], lineage: 'upstream' }, searchable: { field: 'inputs', type: 'URN' },
  }))),
  type: Type.Optional(Type.Enum(['BAR', 'PIE', 'SCATTER', 'TABLE', 'TEXT', 'LINE', 'AREA', 'HISTOGRAM', 'BOX_PLOT', 'WORD_CLOUD', 'COHORT'],
    { searchable: { field: 'type', type: 'KEYWORD' } },
  )),
  access: Type.Optional(AccessLevel),
  lastRefreshed: Type.Optional(Type.Integer()),
})

export const chartInfo = defineAspect('chartInfo', 'com.svc.chart.ChartInfo', ChartInfo)
