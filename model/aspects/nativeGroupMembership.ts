/** The groups created in this service that a user belongs to: IsMemberOfNativeGroup edges. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { UrnList } from './common.ts'

export const NativeGroupMembership = Type.Object({
  nativeGroups: UrnList({ relationship: { name: 'IsMemberOfNativeGroup', entityTypes: ['corpGroup'] } }),
})

export const nativeGroupMembership = defineAspect('nativeGroupMembership', 'com.svc.identity.NativeGroupMembership', NativeGroupMembership)
