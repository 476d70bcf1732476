/** What a glossary term means and where the definition comes from; its parent node is an IsPartOf edge. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, Urn } from './common.ts'

export const GlossaryTermInfo = Type.Object({
  customProperties: Type.Optional(StringMap),
  id: Type.Optional(Type.String()),
  name: Type.Optional(Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  definition: Type.String({ searchable: { field: 'definition', type: 'TEXT', queryByDefault: true } }),
  parentNode: Type.Optional(Urn({
    relationship: { name: 'IsPartOf', entityTypes: ['glossaryNode'] },
    searchable: { field: 'parentNode', type: 'URN' },
  })),
  termSource: Type.String({ searchable: { field: 'termSource', type: 'KEYWORD' } }),
  sourceRef: Type.Optional(Type.String({ searchable: { field: 'sourceRef', type: 'KEYWORD' } })),
  sourceUrl: Type.Optional(Type.String()),
  rawSchema: Type.Optional(Type.String()),
})

export const glossaryTermInfo = defineAspect('glossaryTermInfo', 'com.svc.glossary.GlossaryTermInfo', GlossaryTermInfo)
