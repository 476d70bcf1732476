/** The datasets and fields a query is about (the `entities` search field). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const QuerySubjects = Type.Object({
  subjects: Type.Array(Type.Object({ entity: Urn({ searchable: { field: 'entities', type: 'URN' } }) })),
})

export const querySubjects = defineAspect('querySubjects', 'com.svc.query.QuerySubjects', QuerySubjects)
