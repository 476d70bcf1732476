/**
 * What the native engine indexes for one search document, as plain sets: free-text tokens with their relevance,
 * exact keyword values, distinct values per field (for prefix, contains and range filters and for facets), and
 * numbers (autocomplete reads the gateways' copies of the names: pairsCopy.ts). Pure; documentOps.ts turns the
 * difference of two of these into Redis ops.
 */
import { tokenize, urnText } from '../../derive/tokenize.ts'
import { type SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import { urnId } from '../../urn.ts'

const SEP = '\u0000'

export interface NativeEntries {
  /** token -> relevance (sum of the boosts of the fields it appears in). */
  tokens: Map<string, number>
  /**
   * `field SEP lowercased value` -> original: exact-match postings listed in the field's lexicon (facets, ranges). A
   * URN field's value is found by its id as well (`tags:Engineering`), through the field's ids list (idEntry).
   */
  keywords: Map<string, string>
  /** field -> number (COUNT fields). */
  numbers: Map<string, number>
}

/** The native index entries of a document (none for null). The urn itself is only tokenized: exact and prefix
 * matches on it use the live set, which lists urns in order. */
export function nativeEntries(registry: Registry, entity: EntitySpec, doc: SearchDocument | null): NativeEntries {
  const entries: NativeEntries = { tokens: new Map(), keywords: new Map(), numbers: new Map() }
  if (!doc) return entries
  const fields = registry.searchFields(entity)
  const addTokens = (texts: string[], boost: number): void => {
    const seen = new Set<string>()
    for (const text of texts) {
      for (const token of tokenize(text)) {
        if (seen.has(token)) continue
        seen.add(token)
        entries.tokens.set(token, (entries.tokens.get(token) ?? 0) + boost)
      }
    }
  }
  addTokens([urnText(doc.urn)], 1)
  for (const [name, values] of Object.entries(doc.fields)) {
    const field = fields.get(name)
    if (!field) continue
    if (field.queryByDefault) addTokens(values, field.boost)
    for (const value of values) {
      const lower = value.toLowerCase()
      if (!entries.keywords.has(`${name}${SEP}${lower}`)) entries.keywords.set(`${name}${SEP}${lower}`, value)
      if (field.type === 'COUNT' && !entries.numbers.has(name) && Number.isFinite(Number(value))) entries.numbers.set(name, Number(value))
    }
  }
  return entries
}

/** Separators of a facet line: between fields, and between a field and each of its values. */
export const FIELD_SEP = '\u001e'
export const VALUE_SEP = '\u001f'

/**
 * A document's facet values in one string, `field VALUE_SEP v VALUE_SEP v FIELD_SEP field ...` (lower-cased
 * values, as the facet postings name them): the native engine counts the facets of a small result from these
 * lines instead of one bitmap per value (search-2.lua).
 */
export function facetLine(facets: ReadonlySet<string>, entries: NativeEntries): string {
  const byField = new Map<string, string[]>()
  for (const kw of entries.keywords.keys()) {
    const [field, lower] = kw.split(SEP) as [string, string]
    if (!facets.has(field)) continue
    const list = byField.get(field) ?? []
    list.push(lower.replaceAll(FIELD_SEP, '').replaceAll(VALUE_SEP, ''))
    byField.set(field, list)
  }
  return [...byField].map(([field, values]) => [field, ...values].join(VALUE_SEP)).join(FIELD_SEP)
}

/**
 * A URN field's value (lower-cased) as its field's `ids:` list holds it, `id \0 value`, so that the value is found by
 * its id (`tags:pii`); undefined for a value that is no urn (it is its own id, found as itself).
 */
export function idEntry(lower: string): string | undefined {
  return lower.startsWith('urn:') ? `${urnId(lower)}${SEP}${lower}` : undefined
}
