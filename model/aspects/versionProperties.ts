/** Which version set an asset (a model version, a dataset version) belongs to and its version label: a VersionOf edge. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, Open, Urn, VersionTag } from './common.ts'

export const VersionProperties = Open({
  versionSet: Urn({ relationship: { name: 'VersionOf', entityTypes: ['versionSet'] }, searchable: { field: 'versionSet', type: 'URN' } }),
  version: VersionTag,
  aliases: Type.Optional(Type.Array(VersionTag)),
  comment: Type.Optional(Type.String()),
  sortId: Type.String(),
  isLatest: Type.Optional(Type.Boolean()),
  sourceCreatedTimestamp: Type.Optional(AuditStamp),
  metadataCreatedTimestamp: Type.Optional(AuditStamp),
  versioningScheme: Type.Optional(Type.String({ description: 'LEXICOGRAPHIC_STRING or ALPHANUMERIC_GENERATED_BY_DATAHUB' })),
})

export const versionProperties = defineAspect('versionProperties', 'com.svc.common.VersionProperties', VersionProperties)
