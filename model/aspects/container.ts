/** The container (database, schema, folder) an asset belongs to: an IsPartOf edge and the `container` facet. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const Container = Type.Object({
  container: Urn({
    relationship: { name: 'IsPartOf', entityTypes: ['container'] },
    searchable: { field: 'container', type: 'URN', facet: true },
  }),
})

export const container = defineAspect('container', 'com.svc.container.Container', Container)
