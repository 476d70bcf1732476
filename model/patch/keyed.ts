/**
 * An aspect value in the form patches address, and back: keyed arrays (model/patch/keys.ts) become objects keyed by
 * their items' keys (nested one level per key field), so `/owners/<urn>/<type>` is an ordinary JSON Pointer. Items
 * keep their order: existing ones where they were, added ones after them.
 */
import { arrayKeysOf, CUSTOM_FORMS } from './keys.ts'

/** The part of a JSON Schema the walk needs. */
interface Schema {
  properties?: Record<string, Schema>
  patternProperties?: Record<string, Schema>
  items?: Schema
  type?: unknown
  pattern?: string
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Key fields of the array at `path` (with its schema): listed ones, else [] for arrays of urns, else undefined. */
function keysAt(aspect: string, path: string, schema: Schema | undefined): readonly string[] | undefined {
  const listed = arrayKeysOf(aspect, path)
  if (listed) return listed
  const items = schema?.items
  if (items?.type === 'string' && typeof items.pattern === 'string' && items.pattern.startsWith('^urn:')) return []
  return undefined
}

const join = (path: string, token: string) => (path === '' ? token : `${path}/${token}`)

function childSchema(schema: Schema | undefined, key: string): Schema | undefined {
  return schema?.properties?.[key] ?? (schema?.patternProperties ? Object.values(schema.patternProperties)[0] : undefined)
}

/** The keyed form of `value` (a fresh copy; the input is not changed). */
export function toKeyed(aspect: string, value: unknown, schema: unknown, path = ''): unknown {
  const s = schema as Schema | undefined
  const custom = CUSTOM_FORMS[aspect]?.[path]
  if (custom) return custom.toMap(value)
  if (Array.isArray(value)) {
    const keys = keysAt(aspect, path, s)
    const items = value.map((item) => toKeyed(aspect, item, s?.items, join(path, '*')))
    if (keys === undefined) return items
    const map: Record<string, unknown> = {}
    for (const item of items) {
      const tokens = keys.length === 0 ? [String(item)] : keys.map((k) => (isObject(item) && item[k] !== undefined ? String(item[k]) : ''))
      let level = map
      tokens.slice(0, -1).forEach((t) => { level = (isObject(level[t]) ? level[t] : (level[t] = {})) as Record<string, unknown> })
      level[tokens[tokens.length - 1]!] = item
    }
    return map
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = toKeyed(aspect, v, childSchema(s, k), join(path, k))
    return out
  }
  return value
}

/** The plain form of a keyed value: keyed objects back to arrays, missing key fields filled from the keys. */
export function fromKeyed(aspect: string, value: unknown, schema: unknown, path = ''): unknown {
  const s = schema as Schema | undefined
  const custom = CUSTOM_FORMS[aspect]?.[path]
  if (custom) return custom.fromMap(value)
  const keys = keysAt(aspect, path, s)
  const itemPath = join(path, '*')
  if (Array.isArray(value)) return value.map((item) => fromKeyed(aspect, item, s?.items, itemPath))
  if (keys !== undefined && isObject(value)) {
    const items: unknown[] = []
    const depth = Math.max(keys.length, 1)
    const collect = (level: unknown, tokens: string[]): void => {
      if (tokens.length < depth && isObject(level) && !looksLikeItem(level, keys)) {
        for (const [t, v] of Object.entries(level)) collect(v, [...tokens, t])
        return
      }
      let item = fromKeyed(aspect, level, s?.items, itemPath)
      if (isObject(item)) {
        item = { ...item }
        keys.forEach((k, i) => { if ((item as Record<string, unknown>)[k] === undefined && tokens[i]) (item as Record<string, unknown>)[k] = tokens[i] })
      }
      items.push(item)
    }
    for (const [t, v] of Object.entries(value)) collect(v, [t])
    return items
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = fromKeyed(aspect, v, childSchema(s, k), join(path, k))
    return out
  }
  return value
}

/** An item put directly under the first key level (`/owners/<urn>` = {owner, type}) rather than under all levels. */
function looksLikeItem(level: Record<string, unknown>, keys: readonly string[]): boolean {
  return keys.length > 0 && typeof level[keys[0]!] === 'string'
}
