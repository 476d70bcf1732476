/**
 * Legacy snapshots: `{<snapshot record>: {urn, aspects: [{<aspect record>: value}]}}` to a write item (all aspects
 * of one entity, applied atomically), and stored aspects back to a snapshot (key aspect first).
 */
import { Type } from 'typebox'
import type { Envelope } from './derive/envelope.ts'
import { fail } from './errors.ts'
import type { SystemMetadata, WriteItem } from './jobs.ts'
import { checkAspectValue } from './aspectValue.ts'
import { SystemMetadataSchema } from './proposal.ts'
import type { Registry } from './registry.ts'
import { parseUrn, type ParsedUrn } from './urn.ts'
import { withoutNulls } from './schemaWalk.ts'
import { validateOrThrow } from './validate.ts'

export const SnapshotSchema = Type.Object({
  urn: Type.String(),
  aspects: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'each item: {<fully qualified aspect record name>: <aspect>}' })),
})

export const IngestSchema = Type.Object({
  entity: Type.Object({
    value: Type.Record(Type.String(), SnapshotSchema, { minProperties: 1, maxProperties: 1, description: '{<snapshot record name>: snapshot}' }),
  }),
  systemMetadata: Type.Optional(SystemMetadataSchema),
})

/**
 * Turns an ingest body into a write item, or throws a 400 naming what is wrong; `null` in an optional field reads as
 * absent, and the paths of aspect fields the model does not know go onto `unknown`.
 */
export function parseIngest(registry: Registry, sent: unknown, where = 'entity', unknown?: string[]): WriteItem {
  const body = withoutNulls(IngestSchema, sent)
  validateOrThrow(IngestSchema, body, 'INVALID_REQUEST', 'the body is not a valid snapshot ingest', '')
  const { entity, systemMetadata } = body as { entity: { value: Record<string, Record<string, unknown>> }; systemMetadata?: SystemMetadata }
  const [recordName, snapshot] = Object.entries(entity.value)[0]!
  const spec = registry.entityOfSnapshot(recordName)
  const at = `${where}.value.${recordName}`
  const parsed = parseUrn(registry, snapshot.urn, `${at}.urn`)
  if (parsed.entity !== spec) {
    throw fail('ENTITY_TYPE_MISMATCH', `${recordName} cannot hold a ${parsed.entity.name} urn`, [{ path: `${at}.urn`, message: `must be a ${spec.name} urn` }])
  }
  const items: [string, unknown, string][] = []
  ;((snapshot.aspects ?? []) as Record<string, unknown>[]).forEach((entry, i) => {
    const keys = Object.keys(entry)
    if (keys.length !== 1) {
      throw fail('INVALID_REQUEST', `${at}.aspects[${i}] must have exactly one key, the aspect record name`, [{ path: `${at}.aspects[${i}]`, message: `has ${keys.length} keys` }])
    }
    items.push([keys[0]!, entry[keys[0]!], `${at}.aspects[${i}].${keys[0]}`])
  })
  // GlossaryTermSnapshot's old form carries its aspects as direct fields.
  for (const name of spec.snapshotFields ?? []) {
    if (snapshot[name] !== undefined) items.push([registry.findAspect(name)!.recordName, snapshot[name], `${at}.${name}`])
  }
  const aspects = items.map(([record, value, path]) => {
    const aspect = registry.aspectOfRecord(spec, record)
    return { name: aspect.name, value: checkAspectValue(registry, parsed, aspect.name, value, path, unknown) }
  })
  return { op: 'upsert', urn: parsed.urn, entityType: spec.name, aspects, systemMetadata }
}

/** The snapshot of an entity: key aspect first (synthesized when never written), then stored aspects in registry order. */
export function snapshotView(registry: Registry, parsed: ParsedUrn, latest: ReadonlyMap<string, Envelope>): Record<string, unknown> {
  const { entity } = parsed
  const aspects: Record<string, unknown>[] = []
  const snapshot: Record<string, unknown> = { urn: parsed.urn, aspects }
  for (const spec of registry.versionedAspects(entity)) {
    const value = spec.name === entity.keyAspect ? latest.get(spec.name)?.value ?? parsed.key : latest.get(spec.name)?.value
    if (value === undefined) continue
    aspects.push({ [spec.recordName]: value })
    if (entity.snapshotFields?.includes(spec.name)) snapshot[spec.name] = value
  }
  return { value: { [entity.snapshot]: snapshot } }
}
