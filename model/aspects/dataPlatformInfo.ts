/** What a data platform is (display name, kind, how dataset names are delimited). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const DataPlatformInfo = Type.Object({
  name: Type.String({ maxLength: 15 }),
  displayName: Type.Optional(Type.String({
    searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true },
  })),
  type: Type.Enum(['FILE_SYSTEM', 'KEY_VALUE_STORE', 'MESSAGE_BROKER', 'OBJECT_STORE', 'OLAP_DATASTORE', 'OTHERS',
    'QUERY_ENGINE', 'RELATIONAL_DB', 'SEARCH_ENGINE']),
  datasetNameDelimiter: Type.String(),
  logoUrl: Type.Optional(Type.String()),
})

export const dataPlatformInfo = defineAspect('dataPlatformInfo', 'com.svc.dataplatform.DataPlatformInfo', DataPlatformInfo)
