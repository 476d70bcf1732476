/** A container's description as edited in this service (not from its source). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const EditableContainerProperties = Type.Object({
  description: Type.Optional(Type.String({ searchable: { field: 'editedDescription', type: 'TEXT', queryByDefault: true } })),
})

export const editableContainerProperties = defineAspect('editableContainerProperties', 'com.svc.container.EditableContainerProperties', EditableContainerProperties)
