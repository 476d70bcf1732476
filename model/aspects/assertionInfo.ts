/**
 * What an assertion (a data quality rule) checks. Dataset assertions are modelled field by field (their dataset and
 * fields are Asserts edges); the other kinds (freshness, volume, SQL, field, schema, custom) keep their nested
 * definitions as sent, checked only for what is listed here.
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, CustomAndExternal, Open, StringMap, UrnList, Urn } from './common.ts'

const asserts = (entityTypes: string[]) => ({ relationship: { name: 'Asserts', entityTypes }, searchable: { field: 'asserts', type: 'URN' as const } })

export const AssertionStdParameter = Type.Object({ value: Type.String(), type: Type.Enum(['STRING', 'NUMBER', 'LIST', 'SET', 'UNKNOWN']) })

export const DatasetAssertionInfo = Type.Object({
  dataset: Urn(asserts(['dataset'])),
  scope: Type.Enum(['DATASET_COLUMN', 'DATASET_ROWS', 'DATASET_STORAGE_SIZE', 'DATASET_SCHEMA', 'UNKNOWN']),
  fields: Type.Optional(UrnList(asserts(['schemaField']))),
  aggregation: Type.Optional(Type.String()),
  operator: Type.String(),
  parameters: Type.Optional(Type.Object({
    value: Type.Optional(AssertionStdParameter),
    maxValue: Type.Optional(AssertionStdParameter),
    minValue: Type.Optional(AssertionStdParameter),
  })),
  nativeType: Type.Optional(Type.String()),
  nativeParameters: Type.Optional(StringMap),
  logic: Type.Optional(Type.String()),
})

/** The other kinds of assertion: the asserted entity is an Asserts edge; the rest is kept as sent. */
const OnEntity = Open({ entity: Urn(asserts(['dataset'])) })

export const AssertionInfo = Type.Object({
  ...CustomAndExternal,
  type: Type.Enum(['DATASET', 'FRESHNESS', 'VOLUME', 'SQL', 'FIELD', 'DATA_SCHEMA', 'CUSTOM'], { searchable: { field: 'assertionType', type: 'KEYWORD', facet: true } }),
  datasetAssertion: Type.Optional(DatasetAssertionInfo),
  freshnessAssertion: Type.Optional(OnEntity),
  volumeAssertion: Type.Optional(OnEntity),
  sqlAssertion: Type.Optional(OnEntity),
  fieldAssertion: Type.Optional(OnEntity),
  schemaAssertion: Type.Optional(OnEntity),
  customAssertion: Type.Optional(OnEntity),
  source: Type.Optional(Type.Object({
    type: Type.Enum(['NATIVE', 'EXTERNAL', 'INFERRED']),
    created: Type.Optional(AuditStamp),
  })),
  lastUpdated: Type.Optional(AuditStamp),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  note: Type.Optional(Type.Object({ content: Type.String(), lastModified: AuditStamp })),
})

export const assertionInfo = defineAspect('assertionInfo', 'com.svc.assertion.AssertionInfo', AssertionInfo)
