/** The legacy deprecation aspect of datasets (superseded by `deprecation`). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const DatasetDeprecation = Type.Object({
  deprecated: Type.Boolean(),
  decommissionTime: Type.Optional(Type.Integer()),
  note: Type.String(),
  actor: Type.Optional(Urn()),
})

export const datasetDeprecation = defineAspect('datasetDeprecation', 'com.svc.dataset.DatasetDeprecation', DatasetDeprecation)
