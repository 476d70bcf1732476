/** The version of a pipeline or job definition (a git commit, a release tag). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal } from './common.ts'

export const VersionInfo = Type.Object({
  ...CustomAndExternal,
  version: Type.String(),
  versionType: Type.String(),
})

export const versionInfo = defineAspect('versionInfo', 'com.svc.datajob.VersionInfo', VersionInfo)
