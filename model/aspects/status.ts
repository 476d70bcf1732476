/** Lifecycle of an entity: `removed` true is a soft delete (hidden from search, browse and autocomplete). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const Status = Type.Object({
  removed: Type.Optional(Type.Boolean({ default: false, searchable: { field: 'removed', type: 'BOOLEAN' } })),
})

export const status = defineAspect('status', 'com.svc.common.Status', Status)
