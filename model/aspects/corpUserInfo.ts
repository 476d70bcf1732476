/** Who a user is: names, email, title, manager (a ReportsTo edge). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, Urn } from './common.ts'

const Name = (field: string) =>
  Type.Optional(Type.String({ searchable: { field, type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }))

export const CorpUserInfo = Type.Object({
  customProperties: Type.Optional(StringMap),
  active: Type.Boolean({ searchable: { field: 'active', type: 'BOOLEAN' } }),
  displayName: Name('displayName'),
  email: Type.Optional(Type.String({ searchable: { field: 'email', type: 'KEYWORD', queryByDefault: true } })),
  title: Type.Optional(Type.String({ searchable: { field: 'title', type: 'KEYWORD', queryByDefault: true } })),
  managerUrn: Type.Optional(Urn({ relationship: { name: 'ReportsTo', entityTypes: ['corpuser'] } })),
  departmentId: Type.Optional(Type.Integer()),
  departmentName: Type.Optional(Type.String()),
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  fullName: Name('fullName'),
  countryCode: Type.Optional(Type.String()),
  /** Whether the user is a system user (upstream's current CorpUserInfo). */
  system: Type.Optional(Type.Boolean()),
})

export const corpUserInfo = defineAspect('corpUserInfo', 'com.svc.identity.CorpUserInfo', CorpUserInfo)
