/** An ML feature: its description, data type, version and the datasets it is derived from. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, VersionTag } from './common.ts'
import { FeatureSources, MLFeatureDataType } from './mlCommon.ts'

export const MLFeatureProperties = Type.Object({
  customProperties: Type.Optional(StringMap),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  dataType: Type.Optional(MLFeatureDataType),
  version: Type.Optional(VersionTag),
  sources: Type.Optional(FeatureSources),
})

export const mlFeatureProperties = defineAspect('mlFeatureProperties', 'com.svc.ml.metadata.MLFeatureProperties', MLFeatureProperties)
