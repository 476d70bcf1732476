/**
 * Query parameters: Rest.li 2.0 lists (`aspects=List(a,b)`), repeated parameters (`aspects=a&aspects=b`),
 * integers with bounds. Problems are 400s naming the parameter.
 */
import { fail } from '../../model/errors.ts'
import { splitTuple } from '../../model/urn.ts'

type Query = Record<string, string | string[] | undefined>

/**
 * Refuses parameters the query parser turned into objects (`aspects[a]=b`): every value must be a string or, when
 * repeated, a list of strings. Answers the query typed as such.
 */
export function checkQuery(query: Record<string, unknown>): Query {
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) continue
    throw fail('INVALID_REQUEST', `query parameter "${name}" must be name=value (repeated for a list), not name[...]=value`,
      [{ path: name, message: 'bracket form is not supported' }])
  }
  return query as Query
}

/** The values of a list parameter in either form; undefined when absent. */
export function listParam(query: Query, name: string): string[] | undefined {
  const raw = query[name]
  if (raw === undefined) return undefined
  const values: string[] = []
  for (const item of Array.isArray(raw) ? raw : [raw]) {
    const inner = /^List\((.*)\)$/s.exec(item)
    if (!inner) {
      values.push(...item.split(',').filter((v) => v !== ''))
      continue
    }
    const parts = inner[1] === '' ? [] : splitTuple(`(${inner[1]})`)
    if (!parts) throw fail('INVALID_REQUEST', `parameter ${name} is not a valid List(...)`, [{ path: name, message: 'unbalanced parentheses' }])
    values.push(...parts.map(decodeItem))
  }
  return values
}

function decodeItem(item: string): string {
  try {
    return decodeURIComponent(item)
  } catch {
    return item
  }
}

/** A single string parameter (the first when repeated). */
export function stringParam(query: Query, name: string): string | undefined {
  const raw = query[name]
  return Array.isArray(raw) ? raw[0] : raw
}

/** A required string parameter; 400 naming it when missing or empty. */
export function requiredParam(query: Query, name: string): string {
  const value = stringParam(query, name)
  if (value === undefined || value === '') throw fail('INVALID_REQUEST', `query parameter "${name}" is required`, [{ path: name, message: 'required' }])
  return value
}

/** An integer parameter within [min, max]; `fallback` when absent. */
export function intParam(query: Query, name: string, fallback: number | undefined, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const value = stringParam(query, name)
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw fail('INVALID_REQUEST', `query parameter "${name}" must be an integer between ${min} and ${max}`, [{ path: name, message: `got ${JSON.stringify(value)}` }])
  }
  return n
}

/** A boolean parameter (`true`/`false`, any case); `fallback` when absent, 400 naming it otherwise. */
export function boolParam(query: Query, name: string, fallback: boolean): boolean {
  const value = stringParam(query, name)
  if (value === undefined || value === '') return fallback
  if (/^true$/i.test(value)) return true
  if (/^false$/i.test(value)) return false
  throw fail('INVALID_REQUEST', `query parameter "${name}" must be true or false`, [{ path: name, message: `got ${JSON.stringify(value)}` }])
}
