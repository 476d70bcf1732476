/** Slash-delimited folders an entity is listed under when browsing. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const BrowsePaths = Type.Object({
  paths: Type.Array(Type.String({ pattern: '^/', searchable: { field: 'browsePaths', type: 'KEYWORD', unique: true } })),
})

export const browsePaths = defineAspect('browsePaths', 'com.svc.common.BrowsePaths', BrowsePaths)
