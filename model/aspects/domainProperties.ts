/** What a business domain is called, and its parent domain (an IsPartOf edge). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, StringMap, Urn } from './common.ts'

export const DomainProperties = Type.Object({
  customProperties: Type.Optional(StringMap),
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  created: Type.Optional(AuditStamp),
  parentDomain: Type.Optional(Urn({
    relationship: { name: 'IsPartOf', entityTypes: ['domain'] },
    searchable: { field: 'parentDomain', type: 'URN' },
  })),
})

export const domainProperties = defineAspect('domainProperties', 'com.svc.domain.DomainProperties', DomainProperties)
