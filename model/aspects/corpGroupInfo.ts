/** A group: its admins (OwnedBy edges), members and sub-groups (IsPartOf edges). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, Urn } from './common.ts'

export const CorpGroupInfo = Type.Object({
  displayName: Type.Optional(Type.String({
    searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true },
  })),
  email: Type.Optional(Type.String()),
  admins: Type.Array(Urn({ relationship: { name: 'OwnedBy', entityTypes: ['corpuser'] } })),
  members: Type.Array(Urn({ relationship: { name: 'IsPartOf', entityTypes: ['corpuser'] } })),
  groups: Type.Array(Urn({ relationship: { name: 'IsPartOf', entityTypes: ['corpGroup'] } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  slack: Type.Optional(Type.String()),
  created: Type.Optional(AuditStamp),
})

export const corpGroupInfo = defineAspect('corpGroupInfo', 'com.svc.identity.CorpGroupInfo', CorpGroupInfo)
