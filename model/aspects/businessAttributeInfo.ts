/**
 * Business attributes (upstream 1.x): a reusable field definition (name, description, type, tags, terms) that
 * schema fields point to (businessAttributes). The attribute's own name and description are searchable.
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, Open, StringMap, TagAssociations, TermAssociations, Urn } from './common.ts'
import { SchemaFieldDataType } from './schemaMetadata.ts'

export const BusinessAttributeInfo = Open({
  fieldPath: Type.String(),
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  type: Type.Optional(SchemaFieldDataType),
  globalTags: Type.Optional(TagAssociations('BusinessAttributeTaggedWith', 'tags')),
  glossaryTerms: Type.Optional(TermAssociations('BusinessAttributeTermedWith', 'glossaryTerms')),
  customProperties: Type.Optional(StringMap),
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
})

export const businessAttributeInfo = defineAspect('businessAttributeInfo', 'com.svc.businessattribute.BusinessAttributeInfo', BusinessAttributeInfo)

/** On a schema field: the business attribute it is an instance of (BusinessAttributeOf edge). */
export const BusinessAttributes = Open({
  businessAttribute: Type.Optional(Open({
    businessAttributeUrn: Urn({ relationship: { name: 'BusinessAttributeOf', entityTypes: ['businessAttribute'] }, searchable: { field: 'businessAttribute', type: 'URN', facet: true } }),
  })),
})

export const businessAttributes = defineAspect('businessAttributes', 'com.svc.businessattribute.BusinessAttributes', BusinessAttributes)
