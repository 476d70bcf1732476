/**
 * The definition of a structured property: its qualified name, value type and the entity types it applies to.
 * Allowed values, type qualifiers and display settings are kept as sent.
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Open, UrnList, Urn } from './common.ts'

export const PropertyDefinition = Open({
  qualifiedName: Type.String({ searchable: { field: 'qualifiedName', type: 'TEXT', boost: 10, queryByDefault: true } }),
  displayName: Type.Optional(Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  valueType: Urn(),
  cardinality: Type.Optional(Type.Enum(['SINGLE', 'MULTIPLE'])),
  entityTypes: UrnList({}),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  immutable: Type.Optional(Type.Boolean({ default: false })),
})

export const propertyDefinition = defineAspect('propertyDefinition', 'com.svc.structured.StructuredPropertyDefinition', PropertyDefinition)
