/** What an ML model is meant for, by whom, and what it is not for. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

const ML = 'com.svc.ml.metadata.'
const Strings = Type.Optional(Type.Array(Type.String()))

export const IntendedUse = Type.Object({
  primaryUses: Strings,
  primaryUsers: Type.Optional(Type.Array(Type.Enum(['ENTERPRISE', 'HOBBY', 'ENTERTAINMENT']))),
  outOfScopeUses: Strings,
})

export const intendedUse = defineAspect('intendedUse', `${ML}IntendedUse`, IntendedUse)
