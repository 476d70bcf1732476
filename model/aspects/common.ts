/**
 * Schema pieces shared by several aspects: audit stamps, urns, tag associations, union records.
 */
import { Type, type TSchema, type TProperties } from 'typebox'
import type { Relationship, Searchable } from '../annotations.ts'

/** Annotations a field schema may carry. */
export interface FieldAnnotations {
  [keyword: string | symbol]: unknown
  searchable?: Searchable
  relationship?: Relationship
  description?: string
  default?: unknown
  /** The urn must be of this entity type (checked when urns are parsed). */
  urnOf?: string
}

/** A urn string (any entity type unless the relationship annotation says which). */
export function Urn(annotations: FieldAnnotations = {}): TSchema {
  return Type.String({ pattern: '^urn:[A-Za-z0-9_-]+:[A-Za-z0-9_]+:.+', maxLength: 2048, ...annotations })
}

/** A plain string field. */
export function Str(annotations: FieldAnnotations = {}): TSchema {
  return Type.String(annotations)
}

/** Who did something and when. */
export const AuditStamp = Type.Object({
  time: Type.Integer(),
  actor: Urn(),
  impersonator: Type.Optional(Urn()),
  message: Type.Optional(Type.String()),
})

/** created / lastModified / deleted stamps. */
export const ChangeAuditStamps = Type.Object({
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  deleted: Type.Optional(AuditStamp),
})

/** A string-to-string map. */
export const StringMap = Type.Record(Type.String(), Type.String())

/**
 * A Rest.li union: an object with exactly one key, the fully qualified name of the member record.
 * Unknown member names are rejected (unlike unknown fields of ordinary records, which are dropped).
 */
export function UnionOf(members: TProperties): TSchema {
  const optional = Object.fromEntries(Object.entries(members).map(([k, v]) => [k, Type.Optional(v)]))
  return Type.Object(optional, { additionalProperties: false, minProperties: 1, maxProperties: 1 })
}

/** A list of tag associations; `relationship` names the edge they create (TaggedWith, SchemaFieldTaggedWith ...). */
export function TagAssociations(relationship: string, field: string): TSchema {
  return Type.Object({
    tags: Type.Array(
      Type.Object({
        tag: Urn({
          relationship: { name: relationship, entityTypes: ['tag'] },
          searchable: { field, type: 'URN', facet: field === 'tags' },
        }),
        context: Type.Optional(Type.String()),
        attribution: Type.Optional(MetadataAttribution),
      }),
    ),
  })
}

/** A list of glossary term associations. */
export function TermAssociations(relationship: string, field: string): TSchema {
  return Type.Object({
    terms: Type.Array(
      Type.Object({
        urn: Urn({
          relationship: { name: relationship, entityTypes: ['glossaryTerm'] },
          searchable: { field, type: 'URN', facet: field === 'glossaryTerms' },
        }),
        actor: Type.Optional(Urn()),
        context: Type.Optional(Type.String()),
        attribution: Type.Optional(MetadataAttribution),
      }),
    ),
    auditStamp: Type.Optional(AuditStamp),
  })
}

/** A time, and optionally who (`com.svc.common.TimeStamp`): when something happened in the source system. */
export const TimeStamp = Type.Object({ time: Type.Integer(), actor: Type.Optional(Urn()) })

/** The fields of upstream's `CustomProperties` and `ExternalReference` includes, spread into a record. */
export const CustomAndExternal = {
  customProperties: Type.Optional(StringMap),
  externalUrl: Type.Optional(Type.String()),
}

/** Who applied a piece of metadata, when, and from which source (`com.svc.common.MetadataAttribution`). */
export const MetadataAttribution = Type.Object({
  time: Type.Integer(), actor: Urn(), source: Type.Optional(Urn()), sourceDetail: Type.Optional(StringMap),
})

/** A version label (`com.svc.common.VersionTag`). */
export const VersionTag = Type.Object({
  versionTag: Type.Optional(Type.String()),
  metadataAttribution: Type.Optional(MetadataAttribution),
})

/**
 * A record whose deeper structure this service does not model: its fields are kept as sent (upstream's assertion
 * definitions, for one, have dozens of nested records). Validation checks only what `known` lists.
 */
export function Open(known: TProperties = {}): TSchema {
  return Type.Object(known, { additionalProperties: true })
}

/**
 * An edge to another entity with its audit stamps (`com.svc.common.Edge`): the relationship and search field sit on
 * `destinationUrn`.
 */
export function EdgeTo(annotations: FieldAnnotations): TSchema {
  return Type.Object({
    sourceUrn: Type.Optional(Urn()),
    destinationUrn: Urn(annotations),
    created: Type.Optional(AuditStamp),
    lastModified: Type.Optional(AuditStamp),
    properties: Type.Optional(StringMap),
    confidenceScore: Type.Optional(Type.Number()),
  })
}

/** A list of urns, each one an edge and a search value. */
export function UrnList(annotations: FieldAnnotations): TSchema {
  return Type.Array(Urn(annotations))
}
