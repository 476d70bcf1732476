/** Who owns an entity. Each owner becomes an OwnedBy edge and a value of the `owners` search field and facet. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, Str, Urn } from './common.ts'

export const OwnershipType = Type.Enum(['DATAOWNER', 'TECHNICAL_OWNER', 'BUSINESS_OWNER', 'DATA_STEWARD', 'PRODUCER', 'DEVELOPER', 'CONSUMER',
    'STAKEHOLDER', 'DELEGATE', 'NONE', 'CUSTOM'],
)

export const Owner = Type.Object({
  owner: Urn({
    relationship: { name: 'OwnedBy', entityTypes: ['corpuser', 'corpGroup'] },
    searchable: { field: 'owners', type: 'URN', facet: true },
  }),
  type: Type.Optional(OwnershipType),
  typeUrn: Type.Optional(Urn()),
  source: Type.Optional(Type.Object({ type: Str(), url: Type.Optional(Str()) })),
})

export const Ownership = Type.Object({
  owners: Type.Array(Owner),
  ownerTypes: Type.Optional(Type.Record(Type.String(), Type.Array(Urn()))),
  lastModified: Type.Optional(AuditStamp),
})

export const ownership = defineAspect('ownership', 'com.svc.common.Ownership', Ownership)
