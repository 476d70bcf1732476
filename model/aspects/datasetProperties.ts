/** Descriptive properties of a dataset as ingested from its platform. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, TimeStamp } from './common.ts'

export const DatasetProperties = Type.Object({
  customProperties: Type.Optional(StringMap),
  externalUrl: Type.Optional(Type.String()),
  name: Type.Optional(Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  qualifiedName: Type.Optional(Type.String({ searchable: { field: 'qualifiedName', type: 'TEXT', boost: 10, queryByDefault: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  uri: Type.Optional(Type.String()),
  created: Type.Optional(TimeStamp),
  lastModified: Type.Optional(TimeStamp),
  tags: Type.Optional(Type.Array(Type.String())),
})

export const datasetProperties = defineAspect('datasetProperties', 'com.svc.dataset.DatasetProperties', DatasetProperties)
