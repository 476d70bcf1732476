/** Where a user or group comes from: created here (NATIVE) or synced from an identity provider (EXTERNAL). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const Origin = Type.Object({
  type: Type.Enum(['NATIVE', 'EXTERNAL'], { searchable: { field: 'origin', type: 'KEYWORD' } }),
  externalType: Type.Optional(Type.String()),
})

export const origin = defineAspect('origin', 'com.svc.identity.Origin', Origin)
