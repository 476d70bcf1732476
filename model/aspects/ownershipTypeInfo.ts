/** A custom ownership type (beyond the built-in ones): its name and description. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp } from './common.ts'

export const OwnershipTypeInfo = Type.Object({
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  created: AuditStamp,
  lastModified: AuditStamp,
})

export const ownershipTypeInfo = defineAspect('ownershipTypeInfo', 'com.svc.ownership.OwnershipTypeInfo', OwnershipTypeInfo)
