/** What a user says about themselves (about, teams, skills ...). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const CorpUserEditableInfo = Type.Object({
  aboutMe: Type.Optional(Type.String()),
  teams: Type.Optional(Type.Array(Type.String({ searchable: { field: 'teams', type: 'TEXT' } }))),
  skills: Type.Optional(Type.Array(Type.String({ searchable: { field: 'skills', type: 'TEXT' } }))),
  pictureLink: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.String({ searchable: { field: 'editedDisplayName', type: 'TEXT', queryByDefault: true } })),
  title: Type.Optional(Type.String()),
  slack: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
})

export const corpUserEditableInfo = defineAspect(
  'corpUserEditableInfo', 'com.svc.identity.CorpUserEditableInfo', CorpUserEditableInfo)
