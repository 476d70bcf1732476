/** Values of structured properties (typed custom properties defined as entities of their own) on an asset. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, MetadataAttribution, UnionOf, Urn } from './common.ts'

export const StructuredPropertyValueAssignment = Type.Object({
  propertyUrn: Urn({ searchable: { field: 'structuredProperties', type: 'URN' } }),
  values: Type.Array(UnionOf({ string: Type.String(), double: Type.Number() })),
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  attribution: Type.Optional(MetadataAttribution),
})

export const StructuredProperties = Type.Object({
  properties: Type.Array(StructuredPropertyValueAssignment),
})

export const structuredProperties = defineAspect('structuredProperties', 'com.svc.structured.StructuredProperties', StructuredProperties)
