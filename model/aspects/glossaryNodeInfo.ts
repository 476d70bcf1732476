/** A glossary node (a folder of terms): its definition, name and parent node (an IsPartOf edge). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, Urn } from './common.ts'

export const GlossaryNodeInfo = Type.Object({
  customProperties: Type.Optional(StringMap),
  definition: Type.String({ searchable: { field: 'definition', type: 'TEXT', queryByDefault: true } }),
  parentNode: Type.Optional(Urn({
    relationship: { name: 'IsPartOf', entityTypes: ['glossaryNode'] },
    searchable: { field: 'parentNode', type: 'URN' },
  })),
  name: Type.Optional(Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  id: Type.Optional(Type.String()),
})

export const glossaryNodeInfo = defineAspect('glossaryNodeInfo', 'com.svc.glossary.GlossaryNodeInfo', GlossaryNodeInfo)
