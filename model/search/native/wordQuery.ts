/**
 * A query of words answered from a gateway's copy of the words (wordCopy.ts), as the search script answers it from
 * the postings (search-2.lua): every word must match (a prefix word: any word that starts with it, scoring its best
 * one, as ZUNIONSTORE ... AGGREGATE MIN does), a match scores the sum of its words' scores (minus the relevance), and
 * matches come in the order of that score, then of the urn. Its cost is the smallest word's documents (each looked
 * up in its own words), not the index: the words' documents are read where they are, in this process.
 */
import type { SearchField } from '../../registry.ts'
import { urnId } from '../../urn.ts'
import type { FilterGroups } from '../types.ts'
import { FIELD_SEP, VALUE_SEP } from './entries.ts'
import type { FacetCopy } from './facetCopy.ts'
import { byCodeUnits } from './sortedEntries.ts'
import type { WordCopy } from './wordCopy.ts'

export interface QueryWord { token: string; prefix: boolean }

/** A match: its document number and score (minus the relevance). */
export interface WordMatch { number: number; score: number }

export interface WordAnswer {
  total: number
  /** Matches [from, from + size) in order. */
  page: WordMatch[]
  /** Every match's document number (facets). */
  numbers: number[]
}

/**
 * The matches of `words` among the documents `keep` accepts (every one when it is undefined); `expansions` gives
 * each prefix word's words (wordCopy.ts expand).
 */
export function matchWords(copy: WordCopy, words: readonly QueryWord[], expansions: ReadonlyMap<string, readonly string[]>, keep: ((number: number) => boolean) | undefined, from: number, size: number): WordAnswer {
  const sources = words.map((w) => (w.prefix ? expansions.get(w.token) ?? [] : [w.token]).map((t) => copy.posting(t)))
  if (words.length === 0 || sources.some((postings) => postings.every((p) => p.length === 0))) return { total: 0, page: [], numbers: [] }
  // The word with the fewest documents leads; each of its documents is scored on every word.
  const sizes = sources.map((postings) => postings.reduce((n, p) => n + p.length, 0))
  const lead = sizes.indexOf(Math.min(...sizes))
  const candidates = sources[lead]!.length === 1 ? sources[lead]![0]! : distinct(sources[lead]!)
  const matches: WordMatch[] = []
  for (const number of candidates) {
    if (keep && !keep(number)) continue
    let score = 0
    for (const w of words) {
      const s = w.prefix ? copy.prefixScore(number, w.token) : copy.score(number, w.token)
      if (s === undefined) { score = NaN; break }
      score += s
    }
    if (!Number.isNaN(score)) matches.push({ number, score })
  }
  // One posting alone is in its order already; anything else is put in order.
  if (!(words.length === 1 && sources[0]!.length === 1)) matches.sort((a, b) => a.score - b.score || byCodeUnits(copy.urn(a.number), copy.urn(b.number)))
  return { total: matches.length, page: matches.slice(from, from + size), numbers: matches.map((m) => m.number) }
}

/** The documents of several postings, each once. */
function distinct(postings: readonly (readonly number[])[]): number[] {
  const seen = new Set<number>()
  for (const posting of postings) for (const n of posting) seen.add(n)
  return [...seen]
}

/** A filter criterion a gateway checks on its copy of the facet values: one of `values` (lower-cased) in `field`. */
export interface FacetCriterion { field: string; values: string[]; negated: boolean; urn: boolean }

/**
 * The filter as criteria on facet values, when every criterion is one (EQUAL on a facet field, its values free of
 * the facet line's separators); else null (the script answers).
 */
export function facetFilterOf(fields: ReadonlyMap<string, SearchField>, filter: FilterGroups): FacetCriterion[][] | null {
  const groups: FacetCriterion[][] = []
  for (const group of filter) {
    const criteria: FacetCriterion[] = []
    for (const c of group) {
      const spec = fields.get(c.field)
      if (c.condition !== 'EQUAL' || c.numeric || !spec?.facet || c.field === 'urn') return null
      const values = c.values.map((v) => v.toLowerCase())
      if (values.some((v) => v.includes(FIELD_SEP) || v.includes(VALUE_SEP))) return null
      criteria.push({ field: c.field, values, negated: c.negated, urn: spec.type === 'URN' })
    }
    groups.push(criteria)
  }
  return groups
}

/**
 * Which documents the criteria accept (undefined: no filter), from their facet values: groups are OR-ed, a group's
 * criteria AND-ed. A URN field's value also matches by its id (`s3` for `urn:svc:dataPlatform:s3`), as its
 * postings do (documentOps.ts aliases).
 */
export function facetFilter(facets: FacetCopy, groups: readonly FacetCriterion[][]): ((number: number) => boolean) | undefined {
  if (groups.length === 0) return undefined
  const checks = groups.map((group) => group.map((c) => {
    const wanted = new Set(c.values)
    const ids = facets.valueIds(c.field, (lower) => wanted.has(lower) || (c.urn && wanted.has(urnId(lower).toLowerCase())))
    return { ids, negated: c.negated }
  }))
  return (number) => checks.some((group) => group.every((c) => facets.hasAny(number, c.ids) !== c.negated))
}
