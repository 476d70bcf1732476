/** The platform (and instance) an asset lives on: the `platform` facet of entities whose key has no platform. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const DataPlatformInstance = Type.Object({
  platform: Urn({ searchable: { field: 'platform', type: 'URN', facet: true, facetKey: 'id' } }),
  instance: Type.Optional(Urn()),
})

export const dataPlatformInstance = defineAspect('dataPlatformInstance', 'com.svc.common.DataPlatformInstance', DataPlatformInstance)
