/**
 * Reads behind the v3 routes: the aspects of an entity a request names (latest, or pinned versions; the latest
 * value of a timeseries aspect), shaped as upstream's GenericEntityV3, and whether an entity or aspect exists.
 */
import type { Envelope } from '../../model/derive/envelope.ts'
import { SYSTEM_ACTOR } from '../../model/jobs.ts'
import { translateName } from '../../model/namespace.ts'
import type { Model } from '../../model/services/runtime.ts'
import type { ParsedUrn } from '../../model/urn.ts'
import { entityV3 } from '../views/entityV3.ts'
import { aspectNamed } from './paths.ts'

/** Aspect name -> version (0: latest). */
export type AspectVersions = Map<string, number>

/**
 * The aspects `requested` names of an entity (case-insensitive; names the type does not have are left out), or,
 * when none is named, every aspect of its type and any stored without a model; each at version 0.
 */
export function resolveAspects(model: Model, parsed: ParsedUrn, requested: readonly string[] | undefined): AspectVersions {
  const { registry } = model
  const names = requested && requested.length > 0
    ? requested.map((n) => aspectNamed(registry, parsed.entity.name, n) ?? (registry.acceptsUnknown(n) ? n : undefined)).filter((n): n is string => !!n)
    : [parsed.entity.keyAspect, ...parsed.entity.aspects]
  return new Map(names.map((n) => [n, 0]))
}

/** The entity's aspects at the asked versions, as GenericEntityV3; null when none of them exists. */
export async function readEntityV3(model: Model, parsed: ParsedUrn, aspects: AspectVersions, withSystemMetadata: boolean, all = false): Promise<Record<string, unknown> | null> {
  const { registry, store } = model
  const latest = await store.latest(parsed.urn)
  const found = new Map<string, Envelope>()
  await Promise.all([...aspects].map(async ([name, version]) => {
    const spec = registry.findAspect(name)
    if (spec?.timeseries) {
      const [json] = await store.timeseries(parsed.urn, name, 0, Number.MAX_SAFE_INTEGER, 1)
      if (json) {
        const value = JSON.parse(json) as { timestampMillis?: number }
        found.set(name, { value, created: { time: value.timestampMillis ?? 0, actor: translateName(registry.namespace, SYSTEM_ACTOR) } })
      }
      return
    }
    // History keeps the versions a write replaced; the latest version lives in the latest hash.
    const current = latest.get(name)
    const env = version === 0 || String(current?.systemMetadata?.version) === String(version) ? current : await store.version(parsed.urn, name, version)
    if (env) found.set(name, env)
  }))
  // Upstream stores the key aspect with the entity; here it is synthesized from the urn for an entity that exists.
  const keyName = parsed.entity.keyAspect
  if (aspects.has(keyName) && !found.has(keyName) && latest.size > 0) {
    found.set(keyName, { value: parsed.key, created: { time: 0, actor: translateName(registry.namespace, SYSTEM_ACTOR) } })
  }
  const names = [...aspects.keys()]
  if (all) names.push(...[...latest.keys()].filter((n) => !aspects.has(n)).sort())
  for (const n of names) if (!found.has(n) && latest.has(n) && all) found.set(n, latest.get(n)!)
  return entityV3(parsed.urn, names, found, withSystemMetadata)
}

/** Whether the entity (or one aspect of it) exists; a soft-deleted entity (status.removed) only with includeSoftDelete. */
export async function existsV3(model: Model, parsed: ParsedUrn, aspect: string | undefined, includeSoftDelete: boolean): Promise<boolean> {
  const latest = await model.store.latest(parsed.urn)
  if (latest.size === 0) return false
  const removed = (latest.get('status')?.value as { removed?: boolean } | undefined)?.removed === true
  if (removed && !includeSoftDelete) return false
  if (aspect === undefined) return true
  if (model.registry.findAspect(aspect)?.timeseries) return (await model.store.timeseries(parsed.urn, aspect, 0, Number.MAX_SAFE_INTEGER, 1)).length > 0
  return latest.has(aspect) || aspect === parsed.entity.keyAspect
}
