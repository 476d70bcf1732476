/** A version set: its latest member and how its versions sort. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal, Urn } from './common.ts'

export const VersionSetProperties = Type.Object({
  ...CustomAndExternal,
  latest: Urn(),
  versioningScheme: Type.String(),
})

export const versionSetProperties = defineAspect('versionSetProperties', 'com.svc.versionset.VersionSetProperties', VersionSetProperties)
