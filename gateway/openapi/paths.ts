/**
 * The path shapes of upstream's v3 entity routes under one wildcard (`/openapi/v3/entity/*`), pure:
 * `{entityName}`, `{entityName}/batchGet`, `{entityName}/{urn}` and `{entityName}/{urn}/{aspectName}`. A urn may
 * itself hold `/` (a dataset named `bucket/path`), so the last segment is an aspect name only when it is one of the
 * entity type's aspects (case-insensitive, as upstream looks them up) and what comes before it is a urn.
 */
import type { Registry } from '../../model/registry.ts'

type Params = Record<string, string>

function split(wildcard: string): { entityName: string; rest: string } | null {
  const slash = wildcard.indexOf('/')
  if (slash <= 0) return null
  return { entityName: wildcard.slice(0, slash), rest: wildcard.slice(slash + 1) }
}

/** The aspect name `segment` stands for on `entityName` (case-insensitive), or undefined. */
export function aspectNamed(registry: Registry, entityName: string, segment: string): string | undefined {
  const entity = registry.findEntity(entityName)
  if (!entity) return undefined
  const lower = segment.toLowerCase()
  return [entity.keyAspect, ...entity.aspects].find((a) => a.toLowerCase() === lower)
}

/** `{entityName}` alone (the scroll of one type). */
export const entityNameOnly = (wildcard: string): Params | null =>
  (wildcard !== '' && !wildcard.includes('/') ? { entityName: wildcard } : null)

/** `{entityName}/batchGet`. */
export const batchGetPath = (wildcard: string): Params | null => {
  const parts = split(wildcard)
  return parts && parts.rest === 'batchGet' ? { entityName: parts.entityName } : null
}

/** `{entityName}/{urn}/{aspectName}` (the urn starts with `urn:`). */
export function aspectPath(registry: Registry): (wildcard: string) => Params | null {
  return (wildcard) => {
    const parts = split(wildcard)
    if (!parts || !parts.rest.startsWith('urn:')) return null
    const slash = parts.rest.lastIndexOf('/')
    if (slash < 0) return null
    const aspectName = aspectNamed(registry, parts.entityName, parts.rest.slice(slash + 1)) ?? (registry.acceptsUnknown(parts.rest.slice(slash + 1)) ? parts.rest.slice(slash + 1) : undefined)
    return aspectName ? { entityName: parts.entityName, urn: parts.rest.slice(0, slash), aspectName } : null
  }
}

/** `{entityName}/{urn}` (anything starting with `urn:` that is not the aspect form). */
export function entityPath(registry: Registry): (wildcard: string) => Params | null {
  const aspect = aspectPath(registry)
  return (wildcard) => {
    const parts = split(wildcard)
    if (!parts || !parts.rest.startsWith('urn:') || aspect(wildcard)) return null
    return { entityName: parts.entityName, urn: parts.rest }
  }
}
