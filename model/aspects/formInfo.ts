/** A form (upstream 1.x): a named set of prompts, each asking for a structured property, assigned to actors. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Open, Urn, UrnList } from './common.ts'

const FormPrompt = Open({
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  type: Type.String({ description: 'STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY' }),
  structuredPropertyParams: Type.Optional(Open({ urn: Urn({ relationship: { name: 'PromptsFor', entityTypes: ['structuredProperty'] } }) })),
  required: Type.Optional(Type.Boolean()),
})

export const FormInfo = Open({
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  type: Type.Optional(Type.String({ description: 'COMPLETION (default) or VERIFICATION', searchable: { field: 'type', type: 'KEYWORD', facet: true } })),
  prompts: Type.Optional(Type.Array(FormPrompt)),
  actors: Type.Optional(Open({
    owners: Type.Optional(Type.Boolean()),
    users: Type.Optional(UrnList({ relationship: { name: 'AssignedTo', entityTypes: ['corpuser'] } })),
    groups: Type.Optional(UrnList({ relationship: { name: 'AssignedTo', entityTypes: ['corpGroup'] } })),
  })),
})

export const formInfo = defineAspect('formInfo', 'com.svc.form.FormInfo', FormInfo)
