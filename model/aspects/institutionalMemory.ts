/** Links to documents about an entity. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp } from './common.ts'

export const InstitutionalMemory = Type.Object({
  elements: Type.Array(Type.Object({
    url: Type.String(),
    description: Type.String(),
    createStamp: AuditStamp,
    updateStamp: Type.Optional(AuditStamp),
    settings: Type.Optional(Type.Object({ showInAssetPreview: Type.Optional(Type.Boolean({ default: false })) })),
  })),
})

export const institutionalMemory = defineAspect('institutionalMemory', 'com.svc.common.InstitutionalMemory', InstitutionalMemory)
