/** A platform resource: an unmodelled object of a source platform, kept as a serialized value with its keys. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const SerializedValue = Type.Object({
  blob: Type.String(),
  contentType: Type.Enum(['JSON', 'BINARY']),
  schemaType: Type.Optional(Type.Enum(['AVRO', 'PROTOBUF', 'JSON', 'PEGASUS', 'UNKNOWN'])),
  schemaRef: Type.Optional(Type.String()),
})

export const PlatformResourceInfo = Type.Object({
  resourceType: Type.String({ searchable: { field: 'resourceType', type: 'KEYWORD', facet: true } }),
  primaryKey: Type.String({ searchable: { field: 'primaryKey', type: 'KEYWORD' } }),
  secondaryKeys: Type.Optional(Type.Array(Type.String({ searchable: { field: 'secondaryKeys', type: 'KEYWORD' } }))),
  value: Type.Optional(SerializedValue),
})

export const platformResourceInfo = defineAspect('platformResourceInfo', 'com.svc.platformresource.PlatformResourceInfo', PlatformResourceInfo)
