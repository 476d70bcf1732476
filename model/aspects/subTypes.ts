/** Finer-grained kinds of an entity (view, table, topic ...). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const SubTypes = Type.Object({
  typeNames: Type.Array(Type.String({ searchable: { field: 'typeNames', type: 'KEYWORD', facet: true } })),
})

export const subTypes = defineAspect('subTypes', 'com.svc.common.SubTypes', SubTypes)
