/** A data product: its name, description and the assets it bundles (DataProductContains edges). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, CustomAndExternal, StringMap, Urn } from './common.ts'

export const DataProductProperties = Type.Object({
  ...CustomAndExternal,
  name: Type.Optional(Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  assets: Type.Optional(Type.Array(Type.Object({
    sourceUrn: Type.Optional(Urn()),
    destinationUrn: Urn({ relationship: { name: 'DataProductContains' }, searchable: { field: 'assets', type: 'URN' } }),
    created: Type.Optional(AuditStamp),
    lastModified: Type.Optional(AuditStamp),
    properties: Type.Optional(StringMap),
    outputPort: Type.Optional(Type.Boolean()),
  }))),
})

export const dataProductProperties = defineAspect('dataProductProperties', 'com.svc.dataproduct.DataProductProperties', DataProductProperties)
