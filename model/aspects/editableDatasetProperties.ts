/** Properties of a dataset edited by people (kept apart from ingested ones). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp } from './common.ts'

export const EditableDatasetProperties = Type.Object({
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  deleted: Type.Optional(AuditStamp),
  description: Type.Optional(Type.String({ searchable: { field: 'editedDescription', type: 'TEXT', queryByDefault: true } })),
  name: Type.Optional(Type.String({ searchable: { field: 'editedName', type: 'TEXT', queryByDefault: true } })),
})

export const editableDatasetProperties = defineAspect(
  'editableDatasetProperties', 'com.svc.dataset.EditableDatasetProperties', EditableDatasetProperties)
