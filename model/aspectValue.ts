/** An aspect value checked against its schema and, for a key aspect, against its urn: pure, shared by proposals, snapshots and the apply step. */
import { canonicalJson } from './canonicalJson.ts'
import { fail } from './errors.ts'
import type { Registry } from './registry.ts'
import type { ParsedUrn } from './urn.ts'
import { cleanOrThrow } from './validate.ts'

/** Validates an aspect value (already parsed) for `aspectName`; returns it cleaned of unknown fields. */
export function checkAspectValue(registry: Registry, parsed: ParsedUrn, aspectName: string, value: unknown, where: string): unknown {
  const spec = registry.aspectOf(parsed.entity, aspectName)
  const clean = cleanOrThrow(spec.schema, value, 'INVALID_ASPECT', `${aspectName} does not match its schema`, where)
  if (aspectName === parsed.entity.keyAspect && canonicalJson(clean) !== canonicalJson(parsed.key)) {
    throw fail('INVALID_ASPECT', `the key aspect ${aspectName} must match the urn (${JSON.stringify(parsed.key)})`, [{ path: where, message: 'differs from the urn' }])
  }
  return clean
}
