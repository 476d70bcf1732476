/** What a pipeline (a DAG, a flow) is called and where it runs. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal, TimeStamp } from './common.ts'
import { FabricType } from './keys.ts'

export const DataFlowInfo = Type.Object({
  ...CustomAndExternal,
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  project: Type.Optional(Type.String({ searchable: { field: 'project', type: 'TEXT' } })),
  created: Type.Optional(TimeStamp),
  lastModified: Type.Optional(TimeStamp),
  env: Type.Optional(FabricType),
})

export const dataFlowInfo = defineAspect('dataFlowInfo', 'com.svc.datajob.DataFlowInfo', DataFlowInfo)
