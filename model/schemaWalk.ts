/**
 * Two walks of a value along its JSON Schema, pure: `withoutNulls` reads upstream's Avro-JSON `null` in an optional
 * field as absent (upstream's file sink writes absent optional fields that way), and `unknownFields` lists the JSON
 * paths of fields a record's schema does not know (kept as sent, or refused: UNKNOWN_FIELDS).
 */

/** The part of a JSON Schema the walks need. */
interface Schema {
  properties?: Record<string, Schema>
  patternProperties?: Record<string, Schema>
  additionalProperties?: unknown
  required?: string[]
  items?: Schema
  anyOf?: Schema[]
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const mapValues = (s: Schema | undefined): Schema | undefined => (s?.patternProperties ? Object.values(s.patternProperties)[0] : undefined)
/** JSON Pointer escaping of one path token (RFC 6901). */
const token = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')

/**
 * `value` without the `null` fields its schema does not require, at any depth the schema describes (a fresh copy
 * when something went). A `null` in a required field stays, so validation names it; map entries and array items are
 * never dropped, and neither is anything inside a value of any type (a proposal's `aspect.json`: the aspect's own
 * schema decides there).
 */
export function withoutNulls(schema: unknown, value: unknown): unknown {
  const s = schema as Schema | undefined
  // A value the schema says nothing about (any JSON) is kept as it is: its nulls are its own.
  if (!s || (!s.properties && !s.patternProperties && !s.items)) return value
  if (Array.isArray(value)) {
    let changed = false
    const items = value.map((item) => { const v = withoutNulls(s?.items, item); if (v !== item) changed = true; return v })
    return changed ? items : value
  }
  if (!isObject(value)) return value
  const map = mapValues(s)
  const required = s?.required ?? []
  let changed = false
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (field === null && !map && !required.includes(key)) { changed = true; continue }
    const v = withoutNulls(s?.properties?.[key] ?? map, field)
    if (v !== field) changed = true
    out[key] = v
  }
  return changed ? out : value
}

/**
 * JSON paths (after `prefix`) of the fields of `value` that its schema does not declare: records that list their
 * properties only; maps, open records (`additionalProperties: true`) and alternatives (`anyOf`) know any field.
 */
export function unknownFields(schema: unknown, value: unknown, prefix = ''): string[] {
  const s = schema as Schema | undefined
  if (!s) return []
  if (Array.isArray(value)) return value.flatMap((item, i) => unknownFields(s.items, item, `${prefix}/${i}`))
  if (!isObject(value)) return []
  const map = mapValues(s)
  if (map) return Object.entries(value).flatMap(([k, v]) => unknownFields(map, v, `${prefix}/${token(k)}`))
  if (!s.properties || s.anyOf) return []
  const open = s.additionalProperties === true
  const found: string[] = []
  for (const [key, field] of Object.entries(value)) {
    const known = s.properties[key]
    if (known) found.push(...unknownFields(known, field, `${prefix}/${token(key)}`))
    else if (!open) found.push(`${prefix}/${token(key)}`)
  }
  return found
}
