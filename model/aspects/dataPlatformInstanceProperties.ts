/** What a platform instance (one deployment of a platform) is called. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal } from './common.ts'

export const DataPlatformInstanceProperties = Type.Object({
  ...CustomAndExternal,
  name: Type.Optional(Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
})

export const dataPlatformInstanceProperties = defineAspect('dataPlatformInstanceProperties', 'com.svc.dataplatforminstance.DataPlatformInstanceProperties', DataPlatformInstanceProperties)
