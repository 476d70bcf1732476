/**
 * Proposals (`{entityType, entityUrn, changeType, aspectName, aspect: {value, contentType}, headers?}`) to write
 * items: checks every field, parses the serialized aspect and validates it against the aspect's schema (a PATCH's
 * operations are checked here and applied by the worker). `headers` may make the write conditional
 * (`If-Version-Match`, `If-None-Match: *`). Any problem is a 400 naming the JSON path; nothing reaches storage.
 */
import { Type } from 'typebox'
import { checkAspectValue } from './aspectValue.ts'
import { fail } from './errors.ts'
import type { SystemMetadata, WriteCondition, WriteItem } from './jobs.ts'
import { parsePatchDocument, PATCH_CONTENT_TYPE } from './patch/patchAspect.ts'
import type { Registry } from './registry.ts'
import { parseUrn } from './urn.ts'
import { withoutNulls } from './schemaWalk.ts'
import { validateOrThrow } from './validate.ts'

export const SystemMetadataSchema = Type.Object({
  runId: Type.Optional(Type.String({ maxLength: 512 })),
  lastObserved: Type.Optional(Type.Integer({ minimum: 0 })),
}, { description: 'optional; runId makes the write part of a run that can be rolled back' })

export const ProposalSchema = Type.Object({
  entityType: Type.String({ description: 'entity type name, e.g. dataset (case-insensitive)' }),
  entityUrn: Type.String({ description: 'urn of the entity' }),
  changeType: Type.String({ description: 'UPSERT, PATCH or DELETE' }),
  aspectName: Type.String({ description: 'aspect name, e.g. ownership' }),
  aspect: Type.Optional(Type.Object({
    value: Type.Optional(Type.String({ description: 'the aspect, serialized as JSON (PATCH: a JSON array of RFC 6902 operations)' })),
    json: Type.Optional(Type.Unknown({ description: 'instead of value: the aspect (or patch) as a JSON value, as upstream\'s file sink writes it' })),
    contentType: Type.Optional(Type.String({ description: 'application/json (PATCH: application/json-patch+json)' })),
  })),
  systemMetadata: Type.Optional(SystemMetadataSchema),
  headers: Type.Optional(Type.Record(Type.String(), Type.String(), {
    description: 'If-Version-Match: <version> applies the write only at that version; If-None-Match: * only if the aspect does not exist',
  })),
})

/** The write condition a proposal's headers ask for (header names case-insensitive), or undefined. */
function conditionOf(headers: Record<string, string> | undefined, aspect: string, where: string): WriteCondition | undefined {
  if (!headers) return undefined
  const condition: WriteCondition = { aspect }
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower === 'if-version-match') {
      if (!/^\d+$/.test(value.trim())) throw fail('INVALID_REQUEST', `${where}.headers.${name} must be a version number`, [{ path: `${where}.headers.${name}`, message: `got ${JSON.stringify(value)}` }])
      condition.ifVersionMatch = String(Number(value.trim()))
    } else if (lower === 'if-none-match') {
      if (value.trim() !== '*') throw fail('INVALID_REQUEST', `${where}.headers.${name} must be *`, [{ path: `${where}.headers.${name}`, message: `got ${JSON.stringify(value)}` }])
      condition.ifNoneMatch = true
    }
  }
  return condition.ifVersionMatch !== undefined || condition.ifNoneMatch ? condition : undefined
}

/**
 * Turns a proposal into a write item, or throws a 400 naming what is wrong (paths start with `where`). A `null` in
 * an optional field of the proposal reads as absent. The paths of aspect fields the model does not know go onto
 * `unknown`.
 */
export function parseProposal(registry: Registry, sent: unknown, where = 'proposal', unknown?: string[]): WriteItem {
  const raw = withoutNulls(ProposalSchema, sent)
  // The urn first: an unknown entity type is the clearest thing to say about a proposal of another model.
  const rawUrn = (raw as { entityUrn?: unknown } | null)?.entityUrn
  if (typeof rawUrn === 'string') parseUrn(registry, rawUrn, `${where}.entityUrn`)
  validateOrThrow(ProposalSchema, raw, 'INVALID_REQUEST', `${where} is not a valid proposal`, where)
  const proposal = raw as {
    entityType: string; entityUrn: string; changeType: string; aspectName: string
    aspect?: { value?: string; json?: unknown; contentType?: string }; systemMetadata?: SystemMetadata; headers?: Record<string, string>
  }
  const serialized = proposal.aspect?.value ?? (proposal.aspect?.json !== undefined ? JSON.stringify(proposal.aspect.json) : undefined)
  const missingValue = () => fail('INVALID_REQUEST', `${where}.aspect.value is required`, [{ path: `${where}.aspect.value`, message: 'required' }])
  const parsed = parseUrn(registry, proposal.entityUrn, `${where}.entityUrn`)
  const declared = registry.entity(proposal.entityType)
  if (declared !== parsed.entity) {
    throw fail('ENTITY_TYPE_MISMATCH', `entityType ${proposal.entityType} does not match the urn's entity type ${parsed.entity.name}`,
      [{ path: `${where}.entityType`, message: `must be ${parsed.entity.name}` }])
  }
  const spec = registry.aspectOf(parsed.entity, proposal.aspectName)
  const condition = conditionOf(proposal.headers, spec.name, where)
  const base = { urn: parsed.urn, entityType: parsed.entity.name, systemMetadata: proposal.systemMetadata, ...(condition ? { condition } : {}) }
  switch (proposal.changeType) {
    case 'UPSERT': {
      if (!proposal.aspect) throw fail('INVALID_REQUEST', `${where}.aspect is required for UPSERT`, [{ path: `${where}.aspect`, message: 'required' }])
      const contentType = proposal.aspect.contentType ?? 'application/json'
      if (!/^application\/json\b/i.test(contentType)) {
        throw fail('INVALID_REQUEST', `${where}.aspect.contentType must be application/json`, [{ path: `${where}.aspect.contentType`, message: `got ${contentType}` }])
      }
      let value: unknown
      if (serialized === undefined) throw missingValue()
      try {
        value = JSON.parse(serialized)
      } catch (err) {
        throw fail('INVALID_ASPECT', `${where}.aspect.value is not valid JSON: ${(err as Error).message}`, [{ path: `${where}.aspect.value`, message: 'not valid JSON' }])
      }
      const clean = checkAspectValue(registry, parsed, spec.name, value, `${where}.aspect.value`, unknown)
      return { op: 'upsert', ...base, aspects: [{ name: spec.name, value: clean }] }
    }
    case 'PATCH': {
      if (spec.timeseries || spec.name === parsed.entity.keyAspect) {
        throw fail('UNSUPPORTED_CHANGE', `${spec.name} cannot be patched (${spec.timeseries ? 'timeseries aspect' : 'key aspect'})`, [{ path: `${where}.changeType`, message: 'must be UPSERT' }])
      }
      if (!proposal.aspect) throw fail('INVALID_REQUEST', `${where}.aspect is required for PATCH`, [{ path: `${where}.aspect`, message: 'required' }])
      const contentType = proposal.aspect.contentType ?? 'application/json-patch+json'
      if (!PATCH_CONTENT_TYPE.test(contentType)) {
        throw fail('INVALID_REQUEST', `${where}.aspect.contentType must be application/json-patch+json`, [{ path: `${where}.aspect.contentType`, message: `got ${contentType}` }])
      }
      let document: unknown
      if (serialized === undefined) throw missingValue()
      try {
        document = JSON.parse(serialized)
      } catch (err) {
        throw fail('INVALID_REQUEST', `${where}.aspect.value is not valid JSON: ${(err as Error).message}`, [{ path: `${where}.aspect.value`, message: 'not valid JSON' }])
      }
      return { op: 'patch', ...base, aspect: spec.name, patch: parsePatchDocument(document, `${where}.aspect.value`) }
    }
    case 'DELETE':
      if (spec.timeseries) {
        throw fail('UNSUPPORTED_CHANGE', `timeseries aspect ${spec.name} accepts UPSERT only`, [{ path: `${where}.changeType`, message: 'must be UPSERT' }])
      }
      return { op: 'delete', ...base, aspect: spec.name }
    default:
      throw fail('UNSUPPORTED_CHANGE', `changeType ${proposal.changeType} is not supported`, [{ path: `${where}.changeType`, message: 'must be UPSERT, PATCH or DELETE' }])
  }
}
