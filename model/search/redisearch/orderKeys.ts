/**
 * Order keys: how the redisearch engine answers a range condition (GREATER_THAN ...) on a name or title
 * (limits.ts namedField) however many values it matches, where expanding it into the values of the field's lexicon
 * (ranges.ts) would be refused past MAX_FILTER_VALUES (a word's range at 100,000 names matches ~50,000 of them)
 * and, near the bound, sent the module a union of thousands of tags (20-26 ms a query). Pure.
 *
 * A value's order key is its first ORDER_CHUNKS x CHUNK_CHARS code points (of its lexicon form: lower-cased, the tag
 * separator taken out), CHUNK_CHARS to a number: each code point as min(cp, 0xFFFE) + 1 in 16 bits, 0 past the
 * value's end and past a code point so clamped, so each number is below 2^48 (exact in the module's doubles). Comparing keys chunk by chunk orders
 * values as Redis orders the lexicon's members (by code point), up to the key's length: a value whose key is
 * greater is greater. Each document holds the key of its least value of the field (`<field>__lo1..4`) and of its
 * greatest (`<field>__hi1..4`), NUMERIC fields: `field > v` holds when the greatest value's key is greater than
 * v's, or is equal and the value is greater: those values share v's first 12 code points (the boundary), few,
 * read from the lexicon and matched as tags.
 */

/** Chunks of a key, and code points per chunk (3 x 16 bits = 48 bits, within a double's 53). */
export const ORDER_CHUNKS = 4
const CHUNK_CHARS = 3
const KEY_CHARS = ORDER_CHUNKS * CHUNK_CHARS
/** A code point at or above this is clamped in a key: such a value's key is not exact there. */
const CLAMP = 0xfffe

export const lowKeyField = (field: string, chunk: number): string => `${field}__lo${chunk + 1}`
export const highKeyField = (field: string, chunk: number): string => `${field}__hi${chunk + 1}`

/** The order key of a value (its lexicon form), ORDER_CHUNKS numbers. */
export function orderKey(value: string): number[] {
  const key = new Array<number>(ORDER_CHUNKS).fill(0)
  let n = 0
  for (const ch of value) {
    if (n === KEY_CHARS) break
    const chunk = Math.floor(n / CHUNK_CHARS)
    const cp = ch.codePointAt(0)!
    key[chunk] = key[chunk]! * 65536 + Math.min(cp, CLAMP) + 1
    n++
    // Past a clamped code point the key says nothing more (values that differ there would compare either way).
    if (cp >= CLAMP) break
  }
  // Chunks the value ends in or before are padded (0 for each missing code point).
  for (let m = n; m < KEY_CHARS; m++) key[Math.floor(m / CHUNK_CHARS)] = key[Math.floor(m / CHUNK_CHARS)]! * 65536
  return key
}

/** Code-point order, as Redis orders a lexicon's members (JavaScript's `<` compares UTF-16 code units). */
export function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

/** The hash fields of a document's order keys for one field, from the lexicon forms of its values (none: none). */
export function orderKeyFields(field: string, values: Iterable<string>): Record<string, string> {
  let least: string | undefined
  let greatest: string | undefined
  for (const v of values) {
    if (least === undefined || compareCodePoints(v, least) < 0) least = v
    if (greatest === undefined || compareCodePoints(v, greatest) > 0) greatest = v
  }
  const out: Record<string, string> = {}
  if (least === undefined || greatest === undefined) return out
  orderKey(least).forEach((n, k) => { out[lowKeyField(field, k)] = String(n) })
  orderKey(greatest).forEach((n, k) => { out[highKeyField(field, k)] = String(n) })
  return out
}

export type RangeCondition = 'GREATER_THAN' | 'GREATER_THAN_OR_EQUAL_TO' | 'LESS_THAN' | 'LESS_THAN_OR_EQUAL_TO'
export const isRange = (condition: string): condition is RangeCondition => condition.startsWith('GREATER_THAN') || condition.startsWith('LESS_THAN')

/**
 * A range on `field` against `value` (its lexicon form) by order keys: the clause matching documents whose key is
 * beyond the value's (greatest value's key above it, for GREATER_THAN...; least value's below, for LESS_THAN...),
 * and the ZRANGEBYLEX bounds of the boundary (values with the value's key on the condition's side, itself included
 * for ..._OR_EQUAL_TO), or null when the value's key is not exact (a code point at or above U+FFFE in its first 12):
 * the values are then expanded as before (ranges.ts).
 */
export function orderRange(field: string, condition: RangeCondition, value: string): { clause: string; boundary: [string, string] | null } | null {
  const points = [...value]
  if (points.slice(0, KEY_CHARS).some((ch) => ch.codePointAt(0)! >= CLAMP)) return null
  const key = orderKey(value)
  const above = condition.startsWith('GREATER_THAN')
  const name = above ? highKeyField : lowKeyField
  // Tuple comparison, chunk by chunk: the first k chunks equal and the next one beyond.
  const clause = key.map((n, k) => {
    const equal = key.slice(0, k).map((m, j) => `@${name(field, j)}:[${m} ${m}]`)
    return [...equal, `@${name(field, k)}:${above ? `[(${n} +inf]` : `[-inf (${n}]`}`].join(' ')
  }).map((c) => `(${c})`).join(' | ')
  const orEqual = condition.endsWith('_OR_EQUAL_TO')
  // Values with the same key: those starting with its code points when the value fills the key, else the value alone.
  let boundary: [string, string] | null
  if (points.length < KEY_CHARS) boundary = orEqual ? [`[${value}`, `[${value}`] : null
  else {
    const prefix = points.slice(0, KEY_CHARS).join('')
    const after = points.slice(0, KEY_CHARS - 1).join('') + String.fromCodePoint(points[KEY_CHARS - 1]!.codePointAt(0)! + 1)
    boundary = above ? [`${orEqual ? '[' : '('}${value}`, `(${after}`] : [`[${prefix}`, `${orEqual ? '[' : '('}${value}`]
  }
  return { clause: `(${clause})`, boundary }
}
