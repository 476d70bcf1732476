/**
 * The deployment's namespace: the urn scheme word (`urn:svc:`), the package of record names (`com.svc.`) and the
 * protocol header's name. The model is written in the canonical `svc` names; the registry and the urn parser
 * translate them to the configured namespace when they are built, so aspect files keep their literals and a
 * deployment speaks one namespace throughout (upstream's own clients use `li`, `com.linkedin`,
 * `X-RestLi-Protocol-Version`).
 */

export interface Namespace {
  /** The urn scheme word: urns are `urn:<urn>:<entityType>:<id>`. */
  readonly urn: string
  /** The package of fully qualified record names (`<record>.common.Status`). */
  readonly record: string
  /** The protocol version header clients send (`<protocolHeader>: 2.0.0`). */
  readonly protocolHeader: string
}

/** The names the model is written in, and the default deployment namespace. */
export const CANONICAL_NAMESPACE: Namespace = { urn: 'svc', record: 'com.svc', protocolHeader: 'X-Svc-Protocol-Version' }

/** The namespace upstream's clients speak. */
export const UPSTREAM_NAMESPACE: Namespace = { urn: 'li', record: 'com.linkedin', protocolHeader: 'X-RestLi-Protocol-Version' }

/** Checks a namespace's three settings; throws naming the bad one. */
export function checkNamespace(ns: Namespace): Namespace {
  if (!/^[A-Za-z0-9_-]+$/.test(ns.urn)) throw new Error(`configuration: URN_NAMESPACE must be letters, digits, _ or -, got ${ns.urn}`)
  if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(ns.record)) throw new Error(`configuration: RECORD_NAMESPACE must be a dotted package name, got ${ns.record}`)
  if (!/^[A-Za-z0-9-]+$/.test(ns.protocolHeader)) throw new Error(`configuration: PROTOCOL_HEADER must be a header name, got ${ns.protocolHeader}`)
  return ns
}

/** The urn prefix of a namespace (`urn:li:`). */
export function urnPrefixOf(ns: Namespace): string {
  return `urn:${ns.urn}:`
}

const CANONICAL_URN = urnPrefixOf(CANONICAL_NAMESPACE)
const CANONICAL_RECORD = `${CANONICAL_NAMESPACE.record}.`

/** A canonical name or urn in namespace `ns` (`com.svc.common.Status` -> `com.linkedin.common.Status`). */
export function translateName(ns: Namespace, text: string): string {
  if (ns.urn === CANONICAL_NAMESPACE.urn && ns.record === CANONICAL_NAMESPACE.record) return text
  return text.replaceAll(CANONICAL_URN, urnPrefixOf(ns)).replaceAll(CANONICAL_RECORD, `${ns.record}.`)
}

/** A name or urn of namespace `ns` in the canonical names (the inverse of translateName). */
export function canonicalName(ns: Namespace, text: string): string {
  if (ns.urn === CANONICAL_NAMESPACE.urn && ns.record === CANONICAL_NAMESPACE.record) return text
  return text.replaceAll(urnPrefixOf(ns), CANONICAL_URN).replaceAll(`${ns.record}.`, CANONICAL_RECORD)
}

/**
 * A JSON value (or schema) with every canonical urn prefix and record package, in keys and strings, translated to
 * `ns`; other members (symbols included) are kept as they are. The input is not changed.
 */
export function translateJson<T>(ns: Namespace, value: T): T {
  if (ns.urn === CANONICAL_NAMESPACE.urn && ns.record === CANONICAL_NAMESPACE.record) return value
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return translateName(ns, v)
    if (Array.isArray(v)) return v.map(walk)
    if (typeof v !== 'object' || v === null) return v
    const out: Record<string | symbol, unknown> = {}
    for (const key of Reflect.ownKeys(v)) {
      const member = (v as Record<string | symbol, unknown>)[key]
      out[typeof key === 'string' ? translateName(ns, key) : key] = walk(member)
    }
    return out
  }
  return walk(value) as T
}
