/** The schema of a dataset: its fields (paths, types, descriptions, field-level tags and terms). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, TagAssociations, TermAssociations, UnionOf, Urn } from './common.ts'

const Empty = Type.Object({})
const SCHEMA = 'com.svc.schema.'

/** The union of field data types, keyed by record name (`{"com.svc.schema.StringType": {}}`). */
export const SchemaFieldDataType = Type.Object({
  type: UnionOf({
    [`${SCHEMA}BooleanType`]: Empty,
    [`${SCHEMA}FixedType`]: Empty,
    [`${SCHEMA}StringType`]: Empty,
    [`${SCHEMA}BytesType`]: Empty,
    [`${SCHEMA}NumberType`]: Empty,
    [`${SCHEMA}DateType`]: Empty,
    [`${SCHEMA}TimeType`]: Empty,
    [`${SCHEMA}EnumType`]: Empty,
    [`${SCHEMA}NullType`]: Empty,
    [`${SCHEMA}MapType`]: Type.Object({ keyType: Type.Optional(Type.String()), valueType: Type.Optional(Type.String()) }),
    [`${SCHEMA}ArrayType`]: Type.Object({ nestedType: Type.Optional(Type.Array(Type.String())) }),
    [`${SCHEMA}UnionType`]: Type.Object({ nestedTypes: Type.Optional(Type.Array(Type.String())) }),
    [`${SCHEMA}RecordType`]: Empty,
  }),
})

export const SchemaField = Type.Object({
  fieldPath: Type.String({ minLength: 1, searchable: { field: 'fieldPaths', type: 'TEXT', boost: 5, queryByDefault: true } }),
  jsonPath: Type.Optional(Type.String()),
  nullable: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ searchable: { field: 'fieldDescriptions', type: 'TEXT', boost: 0.1 } })),
  label: Type.Optional(Type.String({ searchable: { field: 'fieldLabels', type: 'TEXT', boost: 0.2 } })),
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  type: SchemaFieldDataType,
  nativeDataType: Type.String(),
  recursive: Type.Optional(Type.Boolean()),
  globalTags: Type.Optional(TagAssociations('SchemaFieldTaggedWith', 'fieldTags')),
  glossaryTerms: Type.Optional(TermAssociations('SchemaFieldWithGlossaryTerm', 'fieldGlossaryTerms')),
  isPartOfKey: Type.Optional(Type.Boolean()),
  isPartitioningKey: Type.Optional(Type.Boolean()),
  jsonProps: Type.Optional(Type.String()),
})

/** How the platform itself describes the schema, keyed by record name. */
export const PlatformSchema = UnionOf({
  [`${SCHEMA}StreamSchema`]: Type.Object({ documentSchema: Type.String(), documentSchemaType: Type.Optional(Type.String()) }),
  [`${SCHEMA}KafkaSchema`]: Type.Object({
    documentSchema: Type.String(),
    documentSchemaType: Type.Optional(Type.String()),
    keySchema: Type.Optional(Type.String()),
    keySchemaType: Type.Optional(Type.String()),
  }),
  [`${SCHEMA}EspressoSchema`]: Type.Object({ documentSchema: Type.String(), tableSchema: Type.String() }),
  [`${SCHEMA}OracleDDL`]: Type.Object({ tableSchema: Type.String() }),
  [`${SCHEMA}MySqlDDL`]: Type.Object({ tableSchema: Type.String() }),
  [`${SCHEMA}PrestoDDL`]: Type.Object({ rawSchema: Type.String() }),
  [`${SCHEMA}BinaryJsonSchema`]: Type.Object({ schema: Type.String() }),
  [`${SCHEMA}OrcSchema`]: Type.Object({ schema: Type.String() }),
  [`${SCHEMA}Schemaless`]: Empty,
  [`${SCHEMA}KeyValueSchema`]: Type.Object({ keySchema: Type.String(), valueSchema: Type.String() }),
  [`${SCHEMA}OtherSchema`]: Type.Object({ rawSchema: Type.String() }),
})

export const SchemaMetadata = Type.Object({
  schemaName: Type.String({ minLength: 1, maxLength: 500 }),
  platform: Urn(),
  version: Type.Integer(),
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  deleted: Type.Optional(AuditStamp),
  dataset: Type.Optional(Urn()),
  cluster: Type.Optional(Type.String()),
  hash: Type.String(),
  platformSchema: PlatformSchema,
  fields: Type.Array(SchemaField),
  primaryKeys: Type.Optional(Type.Array(Type.String())),
  foreignKeys: Type.Optional(Type.Array(Type.Object({
    name: Type.String(),
    foreignFields: Type.Array(Type.String()),
    sourceFields: Type.Array(Type.String()),
    foreignDataset: Urn({ relationship: { name: 'ForeignKeyToDataset', entityTypes: ['dataset'] } }),
  }))),
  /** Deprecated upstream (foreignKeys replaces it); kept as sent. */
  foreignKeysSpecs: Type.Optional(Type.Record(Type.String(), Type.Object({ foreignKey: Type.Unknown() }))),
})

export const schemaMetadata = defineAspect('schemaMetadata', 'com.svc.schema.SchemaMetadata', SchemaMetadata)
