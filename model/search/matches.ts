/**
 * Which fields of a hit matched the query (`metadata.matches[].matchedFields`), pure. Free text reports the
 * default-searched fields holding a query word (the urn only when nothing else matched); a `<field>:<value>`
 * search reports that field's matching value.
 */
import { tokenize } from '../derive/tokenize.ts'
import { URN_FIELD } from '../derive/searchDocument.ts'
import type { SearchField } from '../registry.ts'
import { urnId } from '../urn.ts'
import type { TextQuery } from './types.ts'

const ASCII = /^[\x00-\x7f]*$/

export interface MatchedField {
  name: string
  value: string
}

export function matchedFields(text: TextQuery, fields: ReadonlyMap<string, SearchField>, doc: Record<string, string[]>): MatchedField[] {
  if (text.kind === 'all') return []
  if (text.kind === 'field') {
    const wanted = text.value.toLowerCase()
    return (doc[text.field] ?? [])
      .filter((v) => v.toLowerCase() === wanted || urnId(v).toLowerCase() === wanted)
      .map((value) => ({ name: text.field, value }))
  }
  const words = text.words
  const hits = (value: string): boolean => {
    // An ASCII value's tokens are pieces of its lower-cased text, so a value holding none of the words is not
    // tokenized (most of a hit's values: tokenizing them was the most of what an answer allocated).
    if (ASCII.test(value)) {
      const lower = value.toLowerCase()
      if (!words.some((w) => lower.includes(w.token))) return false
    }
    const tokens = tokenize(value)
    return words.some((w) => tokens.some((t) => (w.prefix ? t.startsWith(w.token) : t === w.token)))
  }
  const found: MatchedField[] = []
  for (const name in doc) {
    if (name === URN_FIELD || !fields.get(name)?.queryByDefault) continue
    for (const value of doc[name]!) if (hits(value)) found.push({ name, value })
  }
  if (found.length === 0 && (doc[URN_FIELD] ?? []).some(hits)) found.push({ name: URN_FIELD, value: doc[URN_FIELD]![0]! })
  return found
}
