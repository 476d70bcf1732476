/** A query (SQL statement) against data assets: its text, name, and who wrote it when. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, StringMap, Urn } from './common.ts'

export const QueryStatement = Type.Object({
  value: Type.String(),
  language: Type.Enum(['SQL', 'UNKNOWN']),
})

export const QueryProperties = Type.Object({
  customProperties: Type.Optional(StringMap),
  statement: QueryStatement,
  source: Type.Enum(['MANUAL', 'SYSTEM'], { searchable: { field: 'source', type: 'KEYWORD', facet: true } }),
  name: Type.Optional(Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  created: AuditStamp,
  lastModified: AuditStamp,
  origin: Type.Optional(Urn()),
})

export const queryProperties = defineAspect('queryProperties', 'com.svc.query.QueryProperties', QueryProperties)
