/** What a container (database, schema, folder, project) is called and how its source describes it. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal, TimeStamp } from './common.ts'
import { FabricType } from './keys.ts'

export const ContainerProperties = Type.Object({
  ...CustomAndExternal,
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  qualifiedName: Type.Optional(Type.String({ searchable: { field: 'qualifiedName', type: 'TEXT', boost: 10, queryByDefault: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  created: Type.Optional(TimeStamp),
  lastModified: Type.Optional(TimeStamp),
  env: Type.Optional(FabricType),
})

export const containerProperties = defineAspect('containerProperties', 'com.svc.container.ContainerProperties', ContainerProperties)
