/** Edits people made to a dataset's schema fields (descriptions, tags, terms), kept apart from ingested schema. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, TagAssociations, TermAssociations } from './common.ts'

export const EditableSchemaMetadata = Type.Object({
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  deleted: Type.Optional(AuditStamp),
  editableSchemaFieldInfo: Type.Array(Type.Object({
    fieldPath: Type.String(),
    description: Type.Optional(Type.String({ searchable: { field: 'editedFieldDescriptions', type: 'TEXT', boost: 0.1 } })),
    globalTags: Type.Optional(TagAssociations('EditableSchemaFieldTaggedWith', 'editedFieldTags')),
    glossaryTerms: Type.Optional(TermAssociations('EditableSchemaFieldWithGlossaryTerm', 'editedFieldGlossaryTerms')),
  })),
})

export const editableSchemaMetadata = defineAspect(
  'editableSchemaMetadata', 'com.svc.schema.EditableSchemaMetadata', EditableSchemaMetadata)
