/**
 * RediSearch query strings (DIALECT 2) for our queries and filters, pure. START_WITH, END_WITH and CONTAIN of two
 * characters or more are wildcards on the tag's values (`{v*}`, `{*v}`, `{*v*}`), which the module expands in its
 * own tag index (with the suffix trie of name fields, engine.ts: 2-12 ms at 100,000 names, where listing every value
 * to us took 100-350 ms). The string range conditions (GREATER_THAN...), one-character and empty values are resolved
 * to the values they match by the engine (ranges.ts: a bounded part of the field's lexicon) and passed in as
 * `candidates`.
 */
import type { Criterion, FilterGroups, TextQuery } from '../types.ts'
import { numericField, tagSafe, textField } from './fields.ts'

/**
 * The index and query of every FT.SEARCH and FT.AGGREGATE of ours, with VERBATIM right after them (words match as
 * written, lower-cased: without it the module added its English stems of each word that is not a prefix, so
 * `"Payments"` also found `payment`, where the native engine does not; after WITHCURSOR the module refuses it).
 */
export const queryArgs = (index: string, query: string): string[] => [index, query, 'VERBATIM']

/** What ends every such command: no timeout (under the module's default, 500 ms, a busy server returned partial results), DIALECT 2. */
export const QUERY_OPTIONS = ['TIMEOUT', '0', 'DIALECT', '2'] as const

/**
 * A value as the tags of a document hold it (`|`, the tags' separator, is a space there: fields.ts tagSafe), escaped:
 * every character but letters and digits gets a backslash (`_` too: the module refuses `{_}` as a syntax error,
 * a 500 here until stop 63, and reads `{a\\_b}` as `a_b`).
 */
export function escapeTag(value: string): string {
  return tagSafe(value).replace(/[^\p{L}\p{N}]/gu, (c) => `\\${c}`)
}

const RANGES: Record<string, (v: string) => string> = {
  EQUAL: (v) => `[${v} ${v}]`,
  GREATER_THAN: (v) => `[(${v} +inf]`,
  GREATER_THAN_OR_EQUAL_TO: (v) => `[${v} +inf]`,
  LESS_THAN: (v) => `[-inf (${v}]`,
  LESS_THAN_OR_EQUAL_TO: (v) => `[-inf ${v}]`,
}

/** String conditions the module matches itself, as a tag wildcard of the (escaped, lower-cased) value. */
const WILDCARDS: Record<string, (escaped: string) => string> = {
  START_WITH: (v) => `${v}*`,
  END_WITH: (v) => `*${v}`,
  CONTAIN: (v) => `*${v}*`,
}

/** The shortest value the module expands as a wildcard (its MINPREFIX, 2): a shorter one matches nothing there. */
const MIN_WILDCARD = 2

/** Whether a string criterion is a tag wildcard (values of 2 characters at least: `{*}` is no query, `{a*}` finds nothing). */
const isWildcard = (c: Criterion): boolean => !c.numeric && WILDCARDS[c.condition] !== undefined && c.values.every((v) => [...v].length >= MIN_WILDCARD)

/** Whether a string criterion needs the field's distinct values resolved first. */
export function needsCandidates(c: Criterion): boolean {
  return !c.numeric && c.condition !== 'EQUAL' && !isWildcard(c)
}

/**
 * One criterion as a query clause; null when it can match nothing, '' when it matches everything (a negated
 * condition no value meets: the module takes `*` only as a whole query, so it cannot stand beside another clause).
 */
export function criterionClause(c: Criterion, candidates?: readonly string[]): string | null {
  if (c.values.length === 0) return c.negated ? '' : null
  let clause: string
  if (c.numeric && RANGES[c.condition]) {
    clause = c.values.map((v) => `@${numericField(c.field)}:${RANGES[c.condition]!(String(Number(v)))}`).join(' | ')
  } else if (isWildcard(c)) {
    clause = `@${c.field}:{${c.values.map((v) => WILDCARDS[c.condition]!(escapeTag(v.toLowerCase()))).join(' | ')}}`
  } else {
    // An empty value is no tag (a document's empty strings are not indexed, on either engine): it matches nothing,
    // and `{}` is a syntax error to the module.
    const tags = needsCandidates(c) ? candidates ?? [] : c.values.map((v) => v.toLowerCase()).filter((v) => v !== '')
    if (tags.length === 0) return c.negated ? '' : null
    clause = `@${c.field}:{${tags.map(escapeTag).join(' | ')}}`
  }
  return c.negated ? `-(${clause})` : `(${clause})`
}

/**
 * A filter whose START_WITH conditions on URN fields (`urnFields`) keep only the values that may begin an urn: the
 * field's tags hold each urn's id beside it (for EQUAL by id, `tags:Gold`), which a wildcard would match too, where
 * the condition compares the whole urn, as on the native engine (`tags START_WITH gol` finds nothing).
 */
export function urnStarts(filter: FilterGroups, urnFields: ReadonlySet<string>): FilterGroups {
  const mayStartUrn = (v: string) => { const lower = v.toLowerCase(); return lower.startsWith('urn:') || 'urn:'.startsWith(lower) }
  return filter.map((group) => group.map((c) => urnFields.has(c.field) && c.condition === 'START_WITH' ? { ...c, values: c.values.filter(mayStartUrn) } : c))
}

/**
 * The filter as a clause (`(a b) | (c)`); undefined for no filter, or one that every document meets (a group whose
 * criteria all match everything); null when nothing can match.
 */
export function filterClause(filter: FilterGroups, resolve: (c: Criterion) => readonly string[] | undefined): string | null | undefined {
  if (filter.length === 0) return undefined
  const groups: string[] = []
  for (const group of filter) {
    const clauses = group.map((c) => criterionClause(c, resolve(c)))
    if (clauses.some((cl) => cl === null)) continue
    const constraining = clauses.filter((cl) => cl !== '')
    if (constraining.length === 0) return undefined
    groups.push(`(${constraining.join(' ')})`)
  }
  return groups.length === 0 ? null : groups.join(' | ')
}

/** The words of a text query; `fields` restricts them to those TEXT fields. */
export function wordsClause(words: readonly { token: string; prefix: boolean }[], fields?: readonly string[]): string {
  const terms = words.map((w) => `${w.token}${w.prefix ? '*' : ''}`).join(' ')
  return fields ? `@${fields.map(textField).join('|')}:(${terms})` : `(${terms})`
}

/** The whole query: words, then a field match, then the filter, intersected. */
export function searchQuery(text: TextQuery, filter: string | undefined): string {
  const parts: string[] = []
  if (text.kind === 'words') parts.push(wordsClause(text.words))
  if (text.kind === 'field') parts.push(`@${text.field}:{${escapeTag(text.value.toLowerCase())}}`)
  if (filter) parts.push(`(${filter})`)
  return parts.length === 0 ? '*' : parts.join(' ')
}
