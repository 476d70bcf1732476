/** The platform (and instance) an asset lives on. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const DataPlatformInstance = Type.Object({
  platform: Urn(),
  instance: Type.Optional(Urn()),
})

export const dataPlatformInstance = defineAspect('dataPlatformInstance', 'com.svc.common.DataPlatformInstance', DataPlatformInstance)
