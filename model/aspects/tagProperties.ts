/** A tag's name, description and colour. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const TagProperties = Type.Object({
  name: Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  colorHex: Type.Optional(Type.String()),
})

export const tagProperties = defineAspect('tagProperties', 'com.svc.tag.TagProperties', TagProperties)
