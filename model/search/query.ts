/**
 * Pure parsing of what search and autocomplete receive: the `input` text (everything, words, or
 * `<field>:<value>`), and the `filter` (checked against the entity's searchable fields: unknown field -> 400).
 */
import { tokenize } from '../derive/tokenize.ts'
import { URN_FIELD } from '../derive/searchDocument.ts'
import type { EntitySpec } from '../entities.ts'
import { fail } from '../errors.ts'
import type { Registry } from '../registry.ts'
import { CONDITIONS, type Condition, type Criterion, type FilterGroups, type TextQuery } from './types.ts'

/** Shortest last word matched as a prefix (RediSearch's MINPREFIX default). */
export const MIN_PREFIX = 2
/**
 * Longest last word matched as a prefix, in characters (code points): RediSearch refuses a longer prefix. A longer
 * word is matched whole, on either engine (no document's word is likely to begin with 1,024 characters of it).
 */
export const MAX_PREFIX = 1024

/** Parses search input: `*` or empty -> all; `<field>:<value>` on a searchable field -> exact; else words. */
export function parseInput(registry: Registry, entity: EntitySpec, input: string): TextQuery {
  const text = input.trim()
  if (text === '' || text === '*') return { kind: 'all' }
  if (text.startsWith('urn:')) return { kind: 'field', field: URN_FIELD, value: text }
  const colon = text.indexOf(':')
  if (colon > 0) {
    const field = text.slice(0, colon).trim()
    const value = text.slice(colon + 1).trim().replace(/^"(.*)"$/, '$1')
    if (registry.searchFields(entity).has(field) && value !== '') return { kind: 'field', field, value }
  }
  const tokens = tokenize(text)
  if (tokens.length === 0) return { kind: 'all' }
  // The last word is a prefix when the input ends in it, or in it and `*` (`samp*`, as upstream's wildcard); a
  // space or punctuation after it ends the word.
  const endsInWord = /[\p{L}\p{N}]\*?$/u.test(text)
  // A one-character prefix would expand to most of the vocabulary: it matches as a whole word instead.
  const prefixLength = (token: string) => token.length >= MIN_PREFIX && (token.length <= MAX_PREFIX || [...token].length <= MAX_PREFIX)
  return { kind: 'words', words: tokens.map((token, i) => ({ token, prefix: endsInWord && i === tokens.length - 1 && prefixLength(token) })) }
}

interface RawCriterion {
  field?: unknown
  value?: unknown
  values?: unknown
  condition?: unknown
  negated?: unknown
}

/** Checks and normalizes a filter `{or: [{and: [criterion...]}]}` (also the single `{and: [...]}` / `criteria` forms). */
export function parseFilter(registry: Registry, entity: EntitySpec, filter: unknown, where = 'filter'): FilterGroups {
  if (filter === undefined || filter === null) return []
  const bad = (path: string, message: string) => fail('INVALID_FILTER', `${path} ${message}`, [{ path, message }])
  if (typeof filter !== 'object' || Array.isArray(filter)) throw bad(where, 'must be an object {or: [{and: [...]}]}')
  const f = filter as { or?: unknown; and?: unknown; criteria?: unknown }
  let groups: unknown[]
  if (f.or !== undefined) groups = Array.isArray(f.or) ? f.or : (() => { throw bad(`${where}.or`, 'must be an array') })()
  else if (f.and !== undefined || f.criteria !== undefined) groups = [{ and: f.and ?? f.criteria }]
  else groups = []
  const fields = registry.searchFields(entity)
  return groups.map((group, g) => {
    const path = `${where}.or[${g}]`
    if (!group || typeof group !== 'object') throw bad(path, 'must be an object {and: [...]}')
    const and = (group as { and?: unknown }).and
    if (!Array.isArray(and)) throw bad(`${path}.and`, 'must be an array of criteria')
    return and.map((raw: RawCriterion, c): Criterion => {
      const at = `${path}.and[${c}]`
      if (!raw || typeof raw !== 'object') throw bad(at, 'must be an object {field, value, condition}')
      if (typeof raw.field !== 'string' || raw.field === '') throw bad(`${at}.field`, 'must be a non-empty string')
      const field = fields.get(raw.field)
      if (!field && raw.field !== URN_FIELD) {
        throw fail('UNKNOWN_FILTER_FIELD', `${entity.name} has no searchable field "${raw.field}"`,
          [{ path: `${at}.field`, message: `searchable fields: ${[URN_FIELD, ...fields.keys()].join(', ')}` }])
      }
      const condition = (raw.condition ?? 'EQUAL') as Condition
      if (typeof condition !== 'string' || !CONDITIONS.includes(condition)) {
        throw bad(`${at}.condition`, `must be one of: ${CONDITIONS.join(', ')}`)
      }
      const values = raw.values !== undefined ? raw.values : [raw.value]
      if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')) {
        throw bad(`${at}.value`, 'must be a string (or `values`, a non-empty array of strings)')
      }
      const numeric = field?.type === 'COUNT'
      const strings = values.map(String)
      // Every condition on a numeric field compares numbers: a value that is none (empty, `abc`, `1,000`, `Infinity`)
      // is refused, EQUAL's too (a 500 on both engines until stop 63; an empty one matched the documents of 0).
      if (numeric && strings.some((v) => v.trim() === '' || !Number.isFinite(Number(v)))) {
        throw bad(`${at}.value`, `must be a number for ${condition} on numeric field ${raw.field}`)
      }
      if (raw.negated !== undefined && typeof raw.negated !== 'boolean') throw bad(`${at}.negated`, 'must be a boolean')
      return { field: raw.field, condition, values: strings, negated: raw.negated === true, numeric }
    })
  }).filter((group) => group.length > 0)
}
