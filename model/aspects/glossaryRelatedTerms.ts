/** How a term relates to other terms: IsA, HasA, HasValue and IsRelatedTo edges. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { UrnList } from './common.ts'

const Terms = (name: string, field: string) =>
  Type.Optional(UrnList({ relationship: { name, entityTypes: ['glossaryTerm'] }, searchable: { field, type: 'URN' } }))

export const GlossaryRelatedTerms = Type.Object({
  isRelatedTerms: Terms('IsA', 'isRelatedTerms'),
  hasRelatedTerms: Terms('HasA', 'hasRelatedTerms'),
  values: Terms('HasValue', 'values'),
  relatedTerms: Terms('IsRelatedTo', 'relatedTerms'),
})

export const glossaryRelatedTerms = defineAspect('glossaryRelatedTerms', 'com.svc.glossary.GlossaryRelatedTerms', GlossaryRelatedTerms)
