/** A schema field entity's name and the schema field urns that alias it. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { UrnList } from './common.ts'

export const SchemaFieldInfo = Type.Object({
  name: Type.Optional(Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  schemaFieldAliases: Type.Optional(UrnList({ searchable: { field: 'schemaFieldAliases', type: 'URN' } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
})

export const schemafieldInfo = defineAspect('schemafieldInfo', 'com.svc.schemafield.SchemaFieldInfo', SchemaFieldInfo)
