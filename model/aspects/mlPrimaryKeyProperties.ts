/** An ML primary key: its description, data type, version and the datasets it is derived from. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, VersionTag } from './common.ts'
import { FeatureSources, MLFeatureDataType } from './mlCommon.ts'

export const MLPrimaryKeyProperties = Type.Object({
  customProperties: Type.Optional(StringMap),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  dataType: Type.Optional(MLFeatureDataType),
  version: Type.Optional(VersionTag),
  sources: FeatureSources,
})

export const mlPrimaryKeyProperties = defineAspect('mlPrimaryKeyProperties', 'com.svc.ml.metadata.MLPrimaryKeyProperties', MLPrimaryKeyProperties)
