/**
 * Query and path parameters, declared per route as TypeBox objects (`RouteSpec.query`, `RouteSpec.pathParam`) and
 * checked here, in one place, before the handler runs (as bodies are in route.ts). A query string has only
 * strings, so each declared parameter is first read by the kind of its schema: an integer (`start=10`), a boolean
 * (`true`/`false`, any case), a list (Rest.li 2.0 `List(a,b)`, repeated `a=x&a=y`, or comma-separated), an enumeration of upper-case words (matched
 * whatever the case: `direction=upstream`), or a string (the first when repeated); an empty value counts as absent,
 * and an absent one takes its schema's `default`. Then the values are validated against the schema: every problem
 * is a 400 INVALID_REQUEST naming the parameter.
 */
import { Type, type TObject, type TSchema } from 'typebox'
import { CatalogError, fail, type ErrorDetail } from '../../model/errors.ts'
import { splitTuple } from '../../model/urn.ts'
import { problems, validatorOf } from '../../model/validate.ts'

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

type Json = Record<string, unknown>

/** The upper-case words of an enumeration schema (a union of string literals), or undefined. */
function upperCaseWords(schema: Json): string[] | undefined {
  const members = (schema.anyOf as Json[] | undefined)?.map((m) => m.const)
  return members?.every((m) => typeof m === 'string' && m === m.toUpperCase()) ? members as string[] : undefined
}

/** One declared parameter read from the query by the kind of its schema (pure); undefined when absent. */
function readParam(query: Query, name: string, schema: Json): unknown {
  if (schema.type === 'array') return listParam(query, name)
  const value = stringParam(query, name)
  if (value === undefined || value === '') return schema.default
  if (schema.type === 'integer') return /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value
  if (schema.type === 'boolean') return /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : value
  if (upperCaseWords(schema)) return value.toUpperCase()
  return value
}

/** Which parameter a problem is about: reported at `/name`, or as a missing property at `/`. */
function named(detail: ErrorDetail): ErrorDetail {
  const missing = /^missing required property: (.*)$/.exec(detail.message)
  if (detail.path === '/' && missing) return { path: missing[1]!, message: 'is required' }
  return { path: detail.path.replace(/^\//, '').split('/')[0]!, message: detail.message }
}

/** Validates `values` against `schema`; throws a 400 naming every parameter in trouble. */
function checkValues(schema: TObject, values: Json, kind: 'query' | 'path'): Json {
  const found = problems(schema, values)
  if (found.length === 0) return values
  const details = found.map(named)
  throw new CatalogError('INVALID_REQUEST', details.map((d) => `${kind} parameter "${d.path}" ${d.message}`).join('; '), details)
}

/**
 * The query check of a route: compiles its schema now (once, at start-up) and answers a function that reads the
 * declared parameters from a query and returns them typed, or throws a 400 naming every problem. Parameters the
 * route does not declare are left out (`action` is the dispatcher's).
 */
export function queryChecker(schema: TObject | undefined): (query: Query) => Json {
  if (!schema) return () => ({})
  validatorOf(schema)
  const properties = Object.entries(schema.properties as Record<string, TSchema>)
  return (query) => {
    const values: Json = {}
    for (const [name, property] of properties) {
      const value = readParam(query, name, property as unknown as Json)
      if (value !== undefined) values[name] = value
    }
    return checkValues(schema, values, 'query')
  }
}

/** The name of a route's path parameter (the wildcard `*`): the one its `pathParam` schema declares, else `urn`. */
export function pathParamName(schema: TObject | undefined): string {
  return Object.keys(schema?.properties ?? {})[0] ?? 'urn'
}

/** The path check of a route: the wildcard's value under its declared name, validated; 400 naming it. */
export function pathChecker(schema: TObject | undefined): (wildcard: string | undefined) => Record<string, string> {
  const name = pathParamName(schema)
  if (schema) validatorOf(schema)
  return (wildcard) => {
    if (wildcard === undefined) return {}
    const values = { [name]: wildcard }
    return (schema ? checkValues(schema, values, 'path') : values) as Record<string, string>
  }
}

// ---- parameter schemas several routes share ----------------------------------------------------------------------

/** An entity's urn given as a query parameter. */
export const UrnParam = Type.String({ minLength: 1, description: 'the entity\'s urn' })
/** A list parameter: `List(a,b)`, repeated, or comma-separated. */
export const ListParam = (description: string, options: { minItems?: number; maxItems?: number } = {}) =>
  Type.Array(Type.String({ minLength: 1 }), { description: `${description}: List(a,b), repeated, or comma-separated`, ...options })
/** Which way lineage is walked (any case). */
export const LineageDirectionParam = Type.Union([Type.Literal('UPSTREAM'), Type.Literal('DOWNSTREAM')], { description: 'UPSTREAM or DOWNSTREAM (any case)' })
/** How many lineage hops. */
export const MaxHopsParam = Type.Integer({ minimum: 1, maximum: 20, default: 3, description: 'hops to walk, 1 to 20' })
