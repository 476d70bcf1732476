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
  const hits = (value: string): boolean => {
    const tokens = tokenize(value)
    return text.words.some((w) => tokens.some((t) => (w.prefix ? t.startsWith(w.token) : t === w.token)))
  }
  const found: MatchedField[] = []
  for (const [name, values] of Object.entries(doc)) {
    if (name === URN_FIELD || !fields.get(name)?.queryByDefault) continue
    for (const value of values) if (hits(value)) found.push({ name, value })
  }
  if (found.length === 0 && (doc[URN_FIELD] ?? []).some(hits)) found.push({ name: URN_FIELD, value: doc[URN_FIELD]![0]! })
  return found
}
