/** The groups a user belongs to (from an identity provider): IsMemberOfGroup edges. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { UrnList } from './common.ts'

export const GroupMembership = Type.Object({
  groups: UrnList({ relationship: { name: 'IsMemberOfGroup', entityTypes: ['corpGroup'] }, searchable: { field: 'groups', type: 'URN' } }),
})

export const groupMembership = defineAspect('groupMembership', 'com.svc.identity.GroupMembership', GroupMembership)
