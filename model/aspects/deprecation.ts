/** Whether an asset is deprecated, since when and by whom. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const Deprecation = Type.Object({
  deprecated: Type.Boolean({ searchable: { field: 'deprecated', type: 'BOOLEAN' } }),
  decommissionTime: Type.Optional(Type.Integer()),
  note: Type.String(),
  actor: Urn(),
  replacement: Type.Optional(Urn()),
})

export const deprecation = defineAspect('deprecation', 'com.svc.common.Deprecation', Deprecation)
