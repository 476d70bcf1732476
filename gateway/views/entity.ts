/** Response shapes of entity reads (entitiesV2 and the versioned aspect), pure. */
import type { Envelope } from '../../model/derive/envelope.ts'
import { SYSTEM_ACTOR } from '../../model/jobs.ts'
import { translateName } from '../../model/namespace.ts'
import type { Registry } from '../../model/registry.ts'
import type { ParsedUrn } from '../../model/urn.ts'

export interface EnvelopedAspect {
  name: string
  version: number
  value: unknown
  created: { time: number; actor: string }
  /** Upstream's systemMetadata; `version` is the aspect's number of distinct values (what If-Version-Match compares). */
  systemMetadata?: Record<string, unknown>
}

/**
 * `{urn, entityName, aspects}` with the latest version of each stored aspect (or of those `requested`; unknown
 * names are ignored). The key aspect is always there: synthesized from the urn when never written. Aspects stored
 * without a model (UNKNOWN_ASPECTS=store) follow the modelled ones.
 */
export function entityV2View(registry: Registry, parsed: ParsedUrn, latest: ReadonlyMap<string, Envelope>, requested: readonly string[] | undefined, now: number) {
  const { entity } = parsed
  const modelled = registry.versionedAspects(entity).map((a) => a.name)
  const unmodelled = [...latest.keys()].filter((name) => !registry.hasAspect(entity, name) && !registry.findAspect(name)).sort()
  const names = [...modelled, ...unmodelled]
    .filter((name) => !requested || name === entity.keyAspect || requested.includes(name))
  const aspects: Record<string, EnvelopedAspect> = {}
  for (const name of names) {
    const env = latest.get(name)
    if (env) aspects[name] = { name, version: 0, value: env.value, created: env.created, ...(env.systemMetadata ? { systemMetadata: env.systemMetadata } : {}) }
    else if (name === entity.keyAspect) aspects[name] = { name, version: 0, value: parsed.key, created: { actor: translateName(registry.namespace, SYSTEM_ACTOR), time: now } }
  }
  return { urn: parsed.urn, entityName: entity.name, aspects }
}

/**
 * The aspect names to read for an entitiesV2 request (known ones, and names an unknown aspect may be stored under;
 * key included), or undefined for all.
 */
export function aspectsToRead(registry: Registry, parsed: ParsedUrn, requested: readonly string[] | undefined): string[] | undefined {
  if (!requested) return undefined
  const known = new Set(registry.versionedAspects(parsed.entity).map((a) => a.name))
  return [...new Set([parsed.entity.keyAspect, ...requested.filter((n) => known.has(n) || registry.acceptsUnknown(n))])]
}
