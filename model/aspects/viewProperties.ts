/** A view's definition: its logic and language, and whether it is materialized. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const ViewProperties = Type.Object({
  materialized: Type.Boolean({ searchable: { field: 'materialized', type: 'BOOLEAN' } }),
  viewLogic: Type.String(),
  formattedViewLogic: Type.Optional(Type.String()),
  viewLanguage: Type.String(),
})

export const viewProperties = defineAspect('viewProperties', 'com.svc.dataset.ViewProperties', ViewProperties)
