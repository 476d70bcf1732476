/** The query behind a chart (LookML or SQL). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const ChartQuery = Type.Object({
  rawQuery: Type.String(),
  type: Type.Enum(['LOOKML', 'SQL'], { searchable: { field: 'queryType', type: 'KEYWORD' } }),
})

export const chartQuery = defineAspect('chartQuery', 'com.svc.chart.ChartQuery', ChartQuery)
