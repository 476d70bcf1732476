/**
 * Schema validation as data: compiled TypeBox validators (built once per schema and cached) that answer with
 * `{path, message}` lists. Thrown as a CatalogError only by `validateOrThrow`, at the edge.
 */
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import type { Validator } from 'typebox/compile'
import { CatalogError, type ErrorCode, type ErrorDetail } from './errors.ts'

const cache = new WeakMap<TSchema, Validator>()

/** The compiled validator of a schema (compiled on first use, then reused). */
export function validatorOf(schema: TSchema): Validator {
  let validator = cache.get(schema)
  if (!validator) {
    validator = Compile(schema)
    cache.set(schema, validator)
  }
  return validator
}

interface RawError {
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, unknown>
  message: string
}

/** The problems of `value` against `schema`, one per JSON path, with `prefix` before each path. */
export function problems(schema: TSchema, value: unknown, prefix = ''): ErrorDetail[] {
  const validator = validatorOf(schema)
  if (validator.Check(value)) return []
  const raw = validator.Errors(value) as unknown as RawError[]
  const byPath = new Map<string, ErrorDetail>()
  for (const err of raw) {
    // additionalProperties:false reports the offending key twice; keep the parent's "unknown property".
    if (err.keyword === 'boolean') continue
    const path = prefix + err.instancePath
    if (!byPath.has(path)) byPath.set(path, { path: path || '/', message: describe(err) })
  }
  return [...byPath.values()].slice(0, 20)
}

function describe(err: RawError): string {
  const list = (v: unknown) => (Array.isArray(v) ? v : [v]).map(String).join(', ')
  switch (err.keyword) {
    case 'required': return `missing required property: ${list(err.params.requiredProperties)}`
    case 'additionalProperties': return `unknown member: ${list(err.params.additionalProperties)}`
    case 'enum': return `must be one of: ${list(err.params.allowedValues)}`
    default: return err.message
  }
}

/** Returns `value` when it matches `schema` (extra properties allowed), or throws `code` naming every problem. */
export function validateOrThrow(schema: TSchema, value: unknown, code: ErrorCode, message: string, prefix = ''): unknown {
  const found = problems(schema, value, prefix)
  if (found.length > 0) {
    throw new CatalogError(code, `${message}: ${found.map((d) => `${d.path} ${d.message}`).join('; ')}`, found)
  }
  return value
}
