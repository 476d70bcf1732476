/** Business domains an asset is associated with. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const Domains = Type.Object({
  domains: Type.Array(Urn({
    relationship: { name: 'AssociatedWith', entityTypes: ['domain'] },
    searchable: { field: 'domains', type: 'URN', facet: true },
  })),
})

export const domains = defineAspect('domains', 'com.svc.domain.Domains', Domains)
