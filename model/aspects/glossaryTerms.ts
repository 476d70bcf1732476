/** Glossary terms attached to an entity: TermedWith edges and the `glossaryTerms` search field. */
import { defineAspect } from './aspect.ts'
import { TermAssociations } from './common.ts'

export const GlossaryTerms = TermAssociations('TermedWith', 'glossaryTerms')

export const glossaryTerms = defineAspect('glossaryTerms', 'com.svc.common.GlossaryTerms', GlossaryTerms)
