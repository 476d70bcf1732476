/** One run of a job or flow: its name, kind and when it was created. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, CustomAndExternal } from './common.ts'

export const DataProcessInstanceProperties = Type.Object({
  ...CustomAndExternal,
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  type: Type.Optional(Type.Enum(['BATCH_SCHEDULED', 'BATCH_AD_HOC', 'STREAMING'], { searchable: { field: 'processType', type: 'KEYWORD', facet: true } })),
  created: AuditStamp,
})

export const dataProcessInstanceProperties = defineAspect('dataProcessInstanceProperties', 'com.svc.dataprocess.DataProcessInstanceProperties', DataProcessInstanceProperties)
