/** A group of ML models (versions of one model): its description, dates and training jobs. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal, TimeStamp, VersionTag } from './common.ts'
import { MLModelLineageInfo } from './mlCommon.ts'

export const MLModelGroupProperties = Type.Object({
  ...CustomAndExternal,
  ...MLModelLineageInfo,
  name: Type.Optional(Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  createdAt: Type.Optional(Type.Integer()),
  created: Type.Optional(TimeStamp),
  lastModified: Type.Optional(TimeStamp),
  version: Type.Optional(VersionTag),
})

export const mlModelGroupProperties = defineAspect('mlModelGroupProperties', 'com.svc.ml.metadata.MLModelGroupProperties', MLModelGroupProperties)
