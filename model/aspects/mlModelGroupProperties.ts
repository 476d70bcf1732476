/** A group of ML models (versions of one model): its description, dates and training jobs. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal } from './common.ts'
import { MLModelDescription, MLModelLineageInfo } from './mlCommon.ts'

export const MLModelGroupProperties = Type.Object({
  ...CustomAndExternal,
  ...MLModelLineageInfo,
  ...MLModelDescription,
  createdAt: Type.Optional(Type.Integer()),
})

export const mlModelGroupProperties = defineAspect('mlModelGroupProperties', 'com.svc.ml.metadata.MLModelGroupProperties', MLModelGroupProperties)
