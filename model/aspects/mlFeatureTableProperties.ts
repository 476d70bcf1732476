/** An ML feature table: its features (Contains edges) and primary keys (KeyedBy edges). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap, UrnList } from './common.ts'

export const MLFeatureTableProperties = Type.Object({
  customProperties: Type.Optional(StringMap),
  name: Type.Optional(Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  mlFeatures: Type.Optional(UrnList({ relationship: { name: 'Contains', entityTypes: ['mlFeature'] }, searchable: { field: 'features', type: 'URN' } })),
  mlPrimaryKeys: Type.Optional(UrnList({ relationship: { name: 'KeyedBy', entityTypes: ['mlPrimaryKey'] }, searchable: { field: 'primaryKeys', type: 'URN' } })),
})

export const mlFeatureTableProperties = defineAspect('mlFeatureTableProperties', 'com.svc.ml.metadata.MLFeatureTableProperties', MLFeatureTableProperties)
