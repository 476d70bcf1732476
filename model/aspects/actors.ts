/** The users and groups that hold a role: Has edges. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const Actors = Type.Object({
  users: Type.Optional(Type.Array(Type.Object({ user: Urn({ relationship: { name: 'Has', entityTypes: ['corpuser'] } }) }))),
  groups: Type.Optional(Type.Array(Type.Object({ group: Urn({ relationship: { name: 'Has', entityTypes: ['corpGroup'] } }) }))),
})

export const actors = defineAspect('actors', 'com.svc.role.Actors', Actors)
