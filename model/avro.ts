/**
 * Upstream Avro-JSON (metadata change events and proposals as the upstream tools write them) to this service's
 * Rest.li JSON, in the registry's namespace. Avro-JSON differs in four ways: record and union names carry an extra `.pegasus2avro` namespace
 * segment, absent optional fields are written as `null`, optional values are wrapped in a one-key object naming
 * their Avro type (`{"string": x}`, `{"array": [...]}`, `{"com.svc...AuditStamp": {...}}`), and single-member
 * Rest.li unions may be written bare. The aspect's schema from the registry says which one-key objects are Rest.li
 * unions to keep and which are Avro wrappers to drop; without a schema only unambiguous rules apply.
 */
import type { Registry } from './registry.ts'
import { urnTypeSegment } from './urn.ts'

/** The part of a JSON Schema the conversion walks (TypeBox schemas are JSON Schema objects). */
interface Schema {
  type?: string | string[]
  properties?: Record<string, Schema>
  patternProperties?: Record<string, Schema>
  items?: Schema
  enum?: unknown[]
  additionalProperties?: unknown
  maxProperties?: number
}

/** Avro type names used as keys of optional-value wrappers. */
const AVRO_WRAPPERS = new Set(['null', 'string', 'bytes', 'int', 'long', 'float', 'double', 'boolean', 'array', 'map', 'enum', 'fixed'])
const AVRO_SEGMENT = /\.pegasus2avro(?=\.)/g

/** A record or union name without Avro's extra namespace segment (`com.svc.pegasus2avro.common.Status` -> `com.svc.common.Status`). */
export function restliName(name: string): string {
  return name.replace(AVRO_SEGMENT, '')
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The only key of a one-key object, else undefined. */
function soleKey(value: unknown): string | undefined {
  if (!isObject(value)) return undefined
  const keys = Object.keys(value)
  return keys.length === 1 ? keys[0] : undefined
}

/**
 * Whether a one-key object `{key: ...}` is Avro's wrapper of an optional value of `schema`'s shape: `{"array": ...}`
 * around arrays, `{"map": ...}` around maps, the record's full name around records, the type or enum name around
 * scalars. Maps and records are checked strictly so that a one-entry map or one-field record is never unwrapped.
 */
function wrapsValueOf(schema: Schema, key: string): boolean {
  if (schema.properties) return key.includes('.') && !(key in schema.properties)
  if (schema.patternProperties) return key === 'map'
  if (schema.items || typesOf(schema).includes('array')) return key === 'array'
  return AVRO_WRAPPERS.has(key) || key.includes('.')
}

/** Rest.li unions are objects with exactly one member (model/aspects/common.ts `UnionOf`). */
function isUnion(schema: Schema): boolean {
  return schema.additionalProperties === false && schema.maxProperties === 1 && schema.properties !== undefined
}

function typesOf(schema: Schema): string[] {
  if (schema.enum) return ['string']
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]
}

/**
 * The union member a bare value belongs to: the first primitive member whose type accepts it, else the first enum
 * listing it. Upstream's writers wrap enum members and leave primitives bare (DataJobInfo.type: a bare "SQL" is the
 * `string` member, not the AzkabanJobType symbol).
 */
function memberFor(schema: Schema, value: unknown): string | undefined {
  const jsonType = typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value
  const members = Object.entries(schema.properties ?? {})
  const primitive = members.find(([, member]) => {
    if (member.enum) return false
    const types = typesOf(member)
    return types.includes(jsonType) || (jsonType === 'integer' && types.includes('number'))
  })
  return (primitive ?? members.find(([, member]) => member.enum?.includes(value)))?.[0]
}

/**
 * Converts one Avro-JSON value to Rest.li JSON. With `schema` (the Rest.li shape expected there), one-key wrappers
 * are dropped unless the schema expects a union, and bare values are wrapped where it does; without one, wrappers
 * named by an Avro type are dropped and record-named one-key objects are kept (they may be unions).
 */
export function fromAvro(value: unknown, schema?: Schema): unknown {
  if (value === null || value === undefined) return undefined
  if (!schema) return schemaless(value)
  if (isUnion(schema)) return toUnion(value, schema)
  const key = soleKey(value)
  const types = typesOf(schema)
  // A wrapper around what the schema expects: `{"array": [...]}`, `{"string": "x"}`, `{"com...AuditStamp": {...}}`.
  if (key !== undefined && wrapsValueOf(schema, key)) {
    return fromAvro((value as Record<string, unknown>)[key], schema)
  }
  if (Array.isArray(value)) return value.map((item) => fromAvro(item, schema.items)).filter((item) => item !== undefined)
  if (isObject(value) && (schema.properties || schema.patternProperties || types.includes('object'))) return toRecord(value, schema)
  return isObject(value) ? schemaless(value) : value
}

function toUnion(value: unknown, schema: Schema): unknown {
  const members = schema.properties!
  const chosen = discriminated(value)
  if (chosen) return { [chosen[0]]: fromAvro(chosen[1], members[chosen[0]]) }
  const key = soleKey(value)
  if (key !== undefined) {
    const name = restliName(key)
    if (name in members) return { [name]: fromAvro((value as Record<string, unknown>)[key], members[name]) }
    // An Avro wrapper around the union itself (never written by Avro, but harmless to accept).
    if (AVRO_WRAPPERS.has(key) && !isObject((value as Record<string, unknown>)[key])) return toUnion((value as Record<string, unknown>)[key], schema)
    return schemaless(value)
  }
  // A bare value where Rest.li expects a union of one member type (ChartInfo.inputs: urn -> {"string": urn}).
  const member = isObject(value) || Array.isArray(value) ? undefined : memberFor(schema, value)
  return member === undefined ? schemaless(value) : { [member]: fromAvro(value, members[member]) }
}

function toRecord(value: Record<string, unknown>, schema: Schema): Record<string, unknown> {
  const pattern = schema.patternProperties ? Object.values(schema.patternProperties)[0] : undefined
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const converted = fromAvro(v, schema.properties?.[k] ?? pattern)
    if (converted !== undefined) out[restliName(k)] = converted
  }
  return out
}

/**
 * A Rest.li union with member aliases travels in Avro as a record: `fieldDiscriminator` names the member that is
 * set, every other member field is null. Answers `[member, value]` for such a record.
 */
function discriminated(value: unknown): [string, unknown] | undefined {
  if (!isObject(value) || typeof value.fieldDiscriminator !== 'string') return undefined
  const member = value.fieldDiscriminator
  return member in value ? [member, value[member]] : undefined
}

/** The rules that need no schema: nulls dropped, Avro-typed wrappers dropped, namespace segments removed. */
function schemaless(value: unknown): unknown {
  if (value === null || value === undefined) return undefined
  if (Array.isArray(value)) return value.map(schemaless).filter((item) => item !== undefined)
  if (!isObject(value)) return value
  const key = soleKey(value)
  if (key !== undefined && AVRO_WRAPPERS.has(key)) return schemaless(value[key])
  const chosen = discriminated(value)
  if (chosen) return { [chosen[0]]: schemaless(chosen[1]) }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const converted = schemaless(v)
    if (converted !== undefined) out[restliName(k)] = converted
  }
  return out
}

/** An HTTP request as the `*.requests.json` fixtures write them. */
export interface UpstreamRequest {
  method: 'POST'
  path: string
  headers: Record<string, string>
  body: Record<string, unknown>
}

/**
 * The schema to convert aspect `recordName` of the snapshot `snapshotName` with: the registry's when it models both,
 * else none (schema-less rules).
 */
export function aspectSchema(registry: Registry, snapshotName: string, recordName: string): Schema | undefined {
  const entity = registry.entities.find((e) => e.snapshot === snapshotName)
  const aspect = entity && [entity.keyAspect, ...entity.aspects].map((n) => registry.findAspect(n)).find((a) => a?.recordName === recordName)
  return aspect?.schema as Schema | undefined
}

/** Whether a record is a metadata change event (`proposedSnapshot`) rather than a proposal. */
export function isMce(record: unknown): boolean {
  return isObject(record) && isObject(record.proposedSnapshot)
}

/** Whether a record is a metadata change proposal. */
export function isMcp(record: unknown): boolean {
  return isObject(record) && typeof record.entityUrn === 'string' && typeof record.changeType === 'string'
}

/**
 * One upstream record (MCE or MCP, Avro-JSON) as the request this service takes: an MCE becomes a snapshot ingest
 * (`POST /entities?action=ingest`), an MCP a proposal (`POST /aspects?action=ingestProposal`). Throws on anything else.
 */
export function mceToRequest(registry: Registry, record: unknown): UpstreamRequest {
  if (isMce(record)) return { method: 'POST', path: '/entities?action=ingest', headers: { 'Content-Type': 'application/json' }, body: { entity: { value: snapshotOf(registry, record as Record<string, unknown>) }, ...systemMetadataOf(record) } }
  if (isMcp(record)) {
    return {
      method: 'POST',
      path: '/aspects?action=ingestProposal',
      headers: { [registry.namespace.protocolHeader]: '2.0.0', 'Content-Type': 'application/json' },
      body: { proposal: proposalOf(record as Record<string, unknown>) },
    }
  }
  throw new Error('not a metadata change event or proposal (neither proposedSnapshot nor entityUrn + changeType)')
}

function systemMetadataOf(record: unknown): { systemMetadata?: unknown } {
  const converted = schemaless((record as Record<string, unknown>).systemMetadata)
  return converted === undefined ? {} : { systemMetadata: converted }
}

function snapshotOf(registry: Registry, record: Record<string, unknown>): Record<string, unknown> {
  const [avroName, raw] = Object.entries(record.proposedSnapshot as Record<string, unknown>)[0] ?? []
  if (avroName === undefined || !isObject(raw)) throw new Error('proposedSnapshot must be {<snapshot record name>: {urn, aspects}}')
  const snapshotName = restliName(avroName)
  const aspects = (Array.isArray(raw.aspects) ? raw.aspects : []).map((entry: unknown) => {
    const [avroRecord, value] = Object.entries(isObject(entry) ? entry : {})[0] ?? []
    if (avroRecord === undefined) return schemaless(entry)
    const recordName = restliName(avroRecord)
    return { [recordName]: fromAvro(value, aspectSchema(registry, snapshotName, recordName)) ?? {} }
  })
  const rest = schemaless(Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'aspects'))) as Record<string, unknown>
  return { [snapshotName]: { ...rest, aspects } }
}

/**
 * A proposal as this service takes it. Its aspect is Rest.li JSON already, never Avro-JSON: either serialized in
 * `aspect.value` or, as newer upstream writers do, an object in `aspect.json`, which is serialized here untouched
 * (the Avro rules would unwrap union members named `string` or `int`).
 */
function proposalOf(record: Record<string, unknown>): Record<string, unknown> {
  const { auditHeader: _, aspect, ...fields } = record
  const converted = schemaless(fields) as Record<string, unknown>
  if (!isObject(aspect)) return converted
  if (aspect.json !== undefined && aspect.value === undefined) {
    return { ...converted, aspect: { value: JSON.stringify(aspect.json), contentType: typeof aspect.contentType === 'string' ? aspect.contentType : 'application/json' } }
  }
  return { ...converted, aspect: schemaless(aspect) }
}

/** The short aspect name upstream derives from a record name (`com.svc.common.GlobalTags` -> `globalTags`). */
export function aspectNameOfRecord(registry: Registry, recordName: string): string {
  const known = registry.entities.flatMap((e) => [e.keyAspect, ...e.aspects]).map((n) => registry.findAspect(n)!).find((a) => a.recordName === recordName)
  if (known) return known.name
  const simple = recordName.slice(recordName.lastIndexOf('.') + 1)
  return simple.charAt(0).toLowerCase() + simple.slice(1)
}

/** The entity type of a urn as written (`urn:svc:corpUser:x` -> `corpUser`), for proposals of unmodelled types too. */
export function entityTypeOfUrn(registry: Registry, urn: string): string {
  const segment = urnTypeSegment(urn) ?? ''
  return registry.findEntity(segment)?.name ?? segment
}
