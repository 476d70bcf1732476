/**
 * How the redisearch engine lays a search document out as a hash, pure. For each search field F:
 *   F      TAG (separator |): every value, plus the id part of urn values (`tags:Engineering` matches)
 *   F__t   TEXT: our tokens of the value (we tokenize, so camelCase splits the same as the native engine)
 *   F__n   NUMERIC: COUNT fields
 * plus `urn` (TAG, sortable, case kept), `urn__t` (TEXT), `__ac` (TAG: autocomplete values, normalized, from each
 * word start, so `@__ac:{sampleh*}` finds "SampleHdfsDataset"), `__facets` (sortable, not indexed: every facet
 * value of the document in one string, which facets.ts streams for a result's matches and counts) and `d` (the
 * document's fields as JSON).
 */
import { tokenize, urnText } from '../../derive/tokenize.ts'
import { URN_FIELD, type SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry, SearchField } from '../../registry.ts'
import { urnId } from '../../urn.ts'
import { normalizeSuggestion, wordStarts } from '../suggest.ts'

export const TAG_SEPARATOR = '|'

/** A tag value with the separator taken out (it would split the value in two). */
export const tagSafe = (v: string): string => v.replaceAll(TAG_SEPARATOR, ' ')

/** Hash field names of a search field. */
export const textField = (name: string): string => `${name}__t`
export const numericField = (name: string): string => `${name}__n`
export const AUTOCOMPLETE_FIELD = '__ac'
export const FACETS_FIELD = '__facets'

/** Separators of the facet line: between fields, and before each value of a field. */
const FIELD_SEP = '\u001e'
const VALUE_SEP = '\u001f'
/** A facet value as the facet line and the facet companions hold it. */
export const facetValue = (v: string): string => tagSafe(v).replaceAll(FIELD_SEP, '').replaceAll(VALUE_SEP, '')

/**
 * A document's facet values (original case, as the facet companions hold them) in one string:
 * `field VALUE_SEP v VALUE_SEP v FIELD_SEP field ...`; never empty (a document without facet values has FIELD_SEP),
 * so that loading it never falls back to reading the hash.
 */
export function facetLine(facets: ReadonlyMap<string, readonly string[]>): string {
  const parts = [...facets].filter(([, values]) => values.length > 0).map(([field, values]) => [field, ...new Set(values.map(facetValue))].join(VALUE_SEP))
  return parts.length > 0 ? parts.join(FIELD_SEP) : FIELD_SEP
}

/** Calls `visit` with each field and value of a facet line, without splitting it into arrays. */
export function visitFacetLine(line: string, visit: (field: string, value: string) => void): void {
  for (let at = 0; at < line.length;) {
    let end = line.indexOf(FIELD_SEP, at)
    if (end < 0) end = line.length
    let cut = line.indexOf(VALUE_SEP, at)
    if (cut >= 0 && cut < end) {
      const field = line.slice(at, cut)
      while (cut < end) {
        let next = line.indexOf(VALUE_SEP, cut + 1)
        if (next < 0 || next > end) next = end
        visit(field, line.slice(cut + 1, next))
        cut = next
      }
    }
    at = end + 1
  }
}

/** The search fields of an entity type, the urn field first. */
export function indexedFields(registry: Registry, entity: EntitySpec): SearchField[] {
  const urnField: SearchField = { name: URN_FIELD, type: 'TEXT', boost: 1, queryByDefault: true, autocomplete: false, facet: false, many: false, unique: true }
  return [urnField, ...registry.searchFields(entity).values()]
}

/** The values a field's TAG holds for `values`: each value, plus the id part of urn values (`tags:Engineering`). */
function fieldTags(field: SearchField, values: readonly string[]): Set<string> {
  const tags = new Set(values.map(tagSafe))
  if (field.type === 'URN') for (const v of values) tags.add(tagSafe(urnId(v)))
  return tags
}

/**
 * The lower-cased TAG values of each search field of a document (the module compares tags without regard to case):
 * what the string lexicons list (companions.ts). None for no document.
 */
export function documentTags(registry: Registry, entity: EntitySpec, doc: SearchDocument | null): Map<string, Set<string>> {
  const tags = new Map<string, Set<string>>()
  if (!doc) return tags
  const fields = registry.searchFields(entity)
  for (const [name, values] of Object.entries(doc.fields)) {
    const field = fields.get(name)
    if (!field || name === URN_FIELD) continue
    tags.set(name, new Set([...fieldTags(field, values)].map((t) => t.toLowerCase())))
  }
  return tags
}

/**
 * A field's words for its TEXT field, each once: the module's scorer (DISMAX) adds a field's weight for each
 * occurrence of a word, where relevance is the sum of the matched fields' boosts (as the native engine scores:
 * `b_orders_orders` does not rank above `a_orders` for `orders`).
 */
const wordsOnce = (words: readonly string[]): string => [...new Set(words)].join(' ')

/** The hash of a document. */
export function documentHash(registry: Registry, entity: EntitySpec, doc: SearchDocument): Record<string, string> {
  const hash: Record<string, string> = { urn: doc.urn, d: JSON.stringify(doc.fields) }
  const fields = registry.searchFields(entity)
  const suggestions = new Set<string>()
  const facets = new Map<string, string[]>()
  for (const [name, values] of Object.entries(doc.fields)) {
    const field = fields.get(name)
    if (name === URN_FIELD) {
      hash[textField(name)] = wordsOnce(tokenize(urnText(doc.urn)))
      continue
    }
    if (!field) continue
    hash[name] = [...fieldTags(field, values)].join(TAG_SEPARATOR)
    if (field.queryByDefault) hash[textField(name)] = wordsOnce(values.flatMap((v) => tokenize(v)))
    if (field.type === 'COUNT' && Number.isFinite(Number(values[0]))) hash[numericField(name)] = String(Number(values[0]))
    if (field.facet) facets.set(name, values)
    if (field.autocomplete) {
      for (const v of values) {
        const text = normalizeSuggestion(v)
        for (const start of wordStarts(text)) suggestions.add(tagSafe(text.slice(start)))
      }
    }
  }
  if (suggestions.size > 0) hash[AUTOCOMPLETE_FIELD] = [...suggestions].join(TAG_SEPARATOR)
  if ([...fields.values()].some((f) => f.facet)) hash[FACETS_FIELD] = facetLine(facets)
  return hash
}
