/** The fields a chart or dashboard reads: each one a consumesField edge to a schemaField urn. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'
import { SchemaField } from './schemaMetadata.ts'

export const InputField = Type.Object({
  schemaFieldUrn: Urn({
    relationship: { name: 'consumesField', entityTypes: ['schemaField'] },
    searchable: { field: 'inputFields', type: 'URN' },
  }),
  schemaField: Type.Optional(SchemaField),
})

export const InputFields = Type.Object({
  fields: Type.Array(InputField),
})

export const inputFields = defineAspect('inputFields', 'com.svc.common.InputFields', InputFields)
