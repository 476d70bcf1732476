/**
 * An aspect value checked against its schema and, for a key aspect, against its urn: pure, shared by proposals,
 * snapshots and the apply step.
 */
import { canonicalJson } from './canonicalJson.ts'
import { fail } from './errors.ts'
import type { Registry } from './registry.ts'
import { unknownFields, withoutNulls } from './schemaWalk.ts'
import type { ParsedUrn } from './urn.ts'
import { validateOrThrow, validatorOf } from './validate.ts'

/**
 * Validates an aspect value (already parsed) for `aspectName` and answers it as it will be stored: a `null` in an
 * optional field reads as absent (gone), everything else is kept as sent. The paths of fields the model does not
 * know are pushed onto `unknown` (the write result lists them); the fields are kept (UNKNOWN_FIELDS=keep, the
 * default), dropped (`drop`, as upstream does since 2025) or refused with a 400 naming them (`refuse`).
 */
export function checkAspectValue(registry: Registry, parsed: ParsedUrn, aspectName: string, value: unknown, where: string, unknown?: string[]): unknown {
  const spec = registry.aspectOf(parsed.entity, aspectName)
  const present = withoutNulls(spec.schema, value)
  validateOrThrow(spec.schema, present, 'INVALID_ASPECT', `${aspectName} does not match its schema`, where)
  const extra = unknownFields(spec.schema, present).map((path) => `${where}${path}`)
  if (extra.length > 0 && registry.unknownFields === 'refuse') {
    throw fail('INVALID_ASPECT', `${aspectName} has fields its model does not know: ${extra.join(', ')}`,
      extra.slice(0, 20).map((path) => ({ path, message: 'unknown field (UNKNOWN_FIELDS=refuse)' })))
  }
  unknown?.push(...extra)
  const known = () => validatorOf(spec.schema).Clean(structuredClone(present))
  if (aspectName === parsed.entity.keyAspect && canonicalJson(known()) !== canonicalJson(parsed.key)) {
    throw fail('INVALID_ASPECT', `the key aspect ${aspectName} must match the urn (${JSON.stringify(parsed.key)})`, [{ path: where, message: 'differs from the urn' }])
  }
  return extra.length > 0 && registry.unknownFields === 'drop' ? known() : present
}
