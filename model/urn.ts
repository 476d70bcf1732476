/**
 * Urns: `urn:svc:<entityType>:<id>` or `urn:svc:<entityType>:(<part>,<part>,...)`, where `svc` is the deployment's
 * urn namespace (URN_NAMESPACE; the registry carries it, and a urn of another namespace is refused). Parsing checks the entity type
 * against the registry (case-insensitively), splits tuple parts at top-level commas, builds the key aspect value
 * and validates it against the key aspect's schema. The urn string itself is kept as given: it is the identity.
 */
import type { EntitySpec } from './entities.ts'
import { CatalogError, fail } from './errors.ts'
import type { Registry } from './registry.ts'
import { problems } from './validate.ts'

export const MAX_URN_LENGTH = 2048

/** A parsed, valid urn. */
export interface ParsedUrn {
  urn: string
  entity: EntitySpec
  /** The key aspect value the urn stands for. */
  key: Record<string, string>
}

/** Splits `(a,b,(c,d))` into its top-level parts; undefined when the parentheses do not balance. */
export function splitTuple(text: string): string[] | undefined {
  if (!text.startsWith('(') || !text.endsWith(')')) return undefined
  const parts: string[] = []
  let depth = 0
  let current = ''
  for (const ch of text.slice(1, -1)) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (depth < 0) return undefined
    if (ch === ',' && depth === 0) {
      parts.push(current)
      current = ''
    } else current += ch
  }
  if (depth !== 0) return undefined
  parts.push(current)
  return parts
}

/** The id part of a urn: the last segment, or the tuple text (`urn:svc:dataPlatform:hive` -> `hive`). */
export function urnId(urn: string): string {
  const rest = urn.startsWith('urn:') ? urn.split(':').slice(3).join(':') : urn
  return rest || urn
}

/** The entity type segment of a urn as written (`corpUser` in `urn:svc:corpUser:jdoe`, whatever the namespace), or undefined. */
export function urnTypeSegment(urn: string): string | undefined {
  return /^urn:[A-Za-z0-9_-]+:([^:]+):/.exec(urn)?.[1]
}

/** Recently parsed urns per registry: reads and writes parse the same urns over and over. */
const cache = new WeakMap<Registry, Map<string, ParsedUrn>>()
const CACHE_SIZE = 10_000

/** Parses and validates a urn; throws 400 INVALID_URN or UNKNOWN_ENTITY_TYPE naming `where` (a parameter or JSON path). */
export function parseUrn(registry: Registry, urn: unknown, where = 'urn'): ParsedUrn {
  let parsed = typeof urn === 'string' ? cache.get(registry)?.get(urn) : undefined
  if (parsed) return parsed
  // Shared between callers: frozen so that none can change another's copy.
  parsed = parseUncached(registry, urn, where)
  Object.freeze(parsed.key)
  Object.freeze(parsed)
  let known = cache.get(registry)
  if (!known) cache.set(registry, (known = new Map()))
  if (known.size >= CACHE_SIZE) known.clear()
  known.set(parsed.urn, parsed)
  return parsed
}

function parseUncached(registry: Registry, urn: unknown, where: string): ParsedUrn {
  const invalid = (why: string): CatalogError =>
    fail('INVALID_URN', `invalid urn ${JSON.stringify(typeof urn === 'string' ? urn.slice(0, 200) : urn)}: ${why}`, [{ path: where, message: why }])
  if (typeof urn !== 'string') throw invalid('must be a string')
  if (urn.length > MAX_URN_LENGTH) throw invalid(`longer than ${MAX_URN_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(urn)) throw invalid('contains control characters')
  // Keys are UTF-8: a lone surrogate would be stored as U+FFFD and share another urn's entity.
  if (!urn.isWellFormed()) throw invalid('contains a lone surrogate (not valid Unicode)')
  const prefix = registry.urnPrefix
  if (!urn.startsWith(prefix)) {
    const other = /^urn:([^:]*):/.exec(urn)?.[1]
    throw invalid(other !== undefined
      ? `urns of this deployment are in the namespace "${registry.namespace.urn}" (must start with "${prefix}"), not "${other}"`
      : `must start with "${prefix}"`)
  }
  const typeSegment = urnTypeSegment(urn)
  if (!typeSegment) throw invalid(`must be ${prefix}<entityType>:<id>`)
  const entity = registry.findEntity(typeSegment)
  if (!entity) {
    throw fail('UNKNOWN_ENTITY_TYPE', `unknown entity type "${typeSegment}" in urn`, [{ path: where, message: `known: ${registry.entityNames().join(', ')}` }])
  }
  const rest = urn.slice(prefix.length + typeSegment.length + 1)
  if (rest.length === 0) throw invalid('the id is empty')
  let parts: string[]
  if (entity.keyFields.length === 1) {
    parts = [rest]
  } else {
    const split = splitTuple(rest)
    if (!split) throw invalid(`a ${entity.name} urn ends with (${entity.keyFields.join(',')})`)
    if (split.length !== entity.keyFields.length) {
      throw invalid(`a ${entity.name} urn has ${entity.keyFields.length} parts (${entity.keyFields.join(',')}), found ${split.length}`)
    }
    parts = split
  }
  const key = Object.fromEntries(entity.keyFields.map((field, i) => [field, parts[i]!]))
  const keyAspect = registry.findAspect(entity.keyAspect)!
  const found = problems(keyAspect.schema, key)
  if (found.length > 0) throw invalid(found.map((d) => `${d.path.slice(1) || 'key'} ${d.message}`).join('; '))
  checkNestedUrns(registry, entity, key, invalid)
  return { urn, entity, key }
}

/** Key fields annotated `urnOf` must hold a valid urn of that entity type (a dataset's platform). */
function checkNestedUrns(registry: Registry, entity: EntitySpec, key: Record<string, string>, invalid: (why: string) => CatalogError): void {
  const schema = registry.findAspect(entity.keyAspect)!.schema as { properties?: Record<string, { urnOf?: string }> }
  for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
    const expected = fieldSchema.urnOf
    if (!expected) continue
    let nested: ParsedUrn
    try {
      nested = parseUrn(registry, key[field], field)
    } catch {
      throw invalid(`${field} must be a ${expected} urn`)
    }
    if (nested.entity.name !== expected) throw invalid(`${field} must be a ${expected} urn`)
  }
}
