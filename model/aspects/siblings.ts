/** The same asset seen through another platform (a dbt model and its warehouse table): SiblingOf edges. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { UrnList } from './common.ts'

export const Siblings = Type.Object({
  siblings: UrnList({ relationship: { name: 'SiblingOf', entityTypes: ['dataset'] }, searchable: { field: 'siblings', type: 'URN' } }),
  primary: Type.Boolean(),
})

export const siblings = defineAspect('siblings', 'com.svc.common.Siblings', Siblings)
