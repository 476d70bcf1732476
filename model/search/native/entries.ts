/**
 * What the native engine indexes for one search document, as plain sets: free-text tokens with their relevance,
 * exact keyword values, distinct values per field (for prefix, contains and range filters and for facets),
 * numbers, and autocomplete entries. Pure; documentOps.ts turns the difference of two of these into Redis ops.
 */
import { tokenize } from '../../derive/tokenize.ts'
import { URN_FIELD, type SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import { urnId } from '../../urn.ts'
import { normalizeSuggestion, wordStarts } from '../suggest.ts'

const SEP = '\u0000'
/** Urn tokens every urn of a type shares; indexing them would only cost memory. */
const URN_NOISE = new Set(['urn', 'svc'])

export interface NativeEntries {
  /** token -> relevance (sum of the boosts of the fields it appears in). */
  tokens: Map<string, number>
  /** `field SEP lowercased value` -> original: exact-match postings listed in the field's lexicon (facets, ranges). */
  keywords: Map<string, string>
  /** `field SEP lowercased id`: postings of urn id parts (`tags:Engineering`), not listed in the lexicon. */
  aliases: Set<string>
  /** field -> number (COUNT fields). */
  numbers: Map<string, number>
  /** `normalized text from a word start SEP original SEP urn`. */
  suggestions: Set<string>
}

/** The native index entries of a document (none for null). */
export function nativeEntries(registry: Registry, entity: EntitySpec, doc: SearchDocument | null): NativeEntries {
  const entries: NativeEntries = { tokens: new Map(), keywords: new Map(), aliases: new Set(), numbers: new Map(), suggestions: new Set() }
  if (!doc) return entries
  const fields = registry.searchFields(entity)
  for (const [name, values] of Object.entries(doc.fields)) {
    const field = fields.get(name)
    const isUrnField = name === URN_FIELD
    const queried = isUrnField || field?.queryByDefault === true
    const boost = isUrnField ? 1 : field?.boost ?? 1
    const seen = new Set<string>()
    for (const value of values) {
      const lower = value.toLowerCase()
      if (!entries.keywords.has(`${name}${SEP}${lower}`)) entries.keywords.set(`${name}${SEP}${lower}`, value)
      if (isUrnField || field?.type === 'URN') {
        const alias = `${name}${SEP}${urnId(value).toLowerCase()}`
        if (!entries.keywords.has(alias)) entries.aliases.add(alias)
      }
      if (field?.type === 'COUNT' && !entries.numbers.has(name) && Number.isFinite(Number(value))) entries.numbers.set(name, Number(value))
      if (queried) {
        for (const token of tokenize(value)) {
          if (isUrnField && (URN_NOISE.has(token) || token === entity.name.toLowerCase())) continue
          if (seen.has(token)) continue
          seen.add(token)
          entries.tokens.set(token, (entries.tokens.get(token) ?? 0) + boost)
        }
      }
      if (field?.autocomplete) {
        const normalized = normalizeSuggestion(value)
        for (const start of wordStarts(normalized)) entries.suggestions.add(`${normalized.slice(start)}${SEP}${value}${SEP}${doc.urn}`)
      }
    }
  }
  return entries
}
