/** What a group says about itself, as edited in this service. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const CorpGroupEditableInfo = Type.Object({
  description: Type.Optional(Type.String({ searchable: { field: 'editedDescription', type: 'TEXT', queryByDefault: true } })),
  pictureLink: Type.Optional(Type.String()),
  slack: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
})

export const corpGroupEditableInfo = defineAspect('corpGroupEditableInfo', 'com.svc.identity.CorpGroupEditableInfo', CorpGroupEditableInfo)
