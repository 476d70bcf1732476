/**
 * Upstream's v3 shapes of reads, pure: an entity is `{"urn": u, "<aspectName>": {"value": {...},
 * "systemMetadata"?: {...}, "auditStamp"?: {...}}}` (GenericEntityV3; system metadata and audit stamp only with
 * `systemMetadata=true`), an aspect alone is the inner object (GenericAspectV3), a scroll `{"entities": [...],
 * "scrollId"?: ...}`.
 */
import type { Envelope } from '../../model/derive/envelope.ts'

/** One aspect as upstream's v3 answers it. */
export function aspectV3(env: Envelope, withSystemMetadata: boolean): Record<string, unknown> {
  return withSystemMetadata
    ? { value: env.value, systemMetadata: env.systemMetadata ?? {}, auditStamp: env.created }
    : { value: env.value }
}

/** An entity with the aspects found (in `names` order); null when none was found (upstream answers 404 then). */
export function entityV3(urn: string, names: readonly string[], found: ReadonlyMap<string, Envelope>, withSystemMetadata: boolean): Record<string, unknown> | null {
  const entity: Record<string, unknown> = { urn }
  let any = false
  for (const name of names) {
    const env = found.get(name)
    if (!env) continue
    entity[name] = aspectV3(env, withSystemMetadata)
    any = true
  }
  return any ? entity : null
}
