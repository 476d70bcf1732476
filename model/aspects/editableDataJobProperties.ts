/** A job's description as edited in this service. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp } from './common.ts'

export const EditableDataJobProperties = Type.Object({
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  deleted: Type.Optional(AuditStamp),
  description: Type.Optional(Type.String({ searchable: { field: 'editedDescription', type: 'TEXT', queryByDefault: true } })),
})

export const editableDataJobProperties = defineAspect('editableDataJobProperties', 'com.svc.datajob.EditableDataJobProperties', EditableDataJobProperties)
