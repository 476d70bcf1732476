/**
 * The value a patch starts from when the aspect does not exist yet: every required array empty, every required map
 * and record empty (recursively), every required free-text string "" (as upstream's templates start a chart's
 * title), nothing else. What the patch does not fill in must still satisfy the schema.
 */

interface Schema {
  type?: unknown
  properties?: Record<string, Schema>
  patternProperties?: Record<string, Schema>
  required?: string[]
  additionalProperties?: unknown
  maxProperties?: number
  enum?: unknown[]
  pattern?: string
}

/** The empty value of an aspect schema. */
export function emptyValue(schema: unknown): unknown {
  const s = schema as Schema
  if (s.type === 'array') return []
  if (s.type === 'string') return s.enum || s.pattern ? undefined : ''
  if (s.type !== 'object') return undefined
  const out: Record<string, unknown> = {}
  const isUnion = s.additionalProperties === false && s.maxProperties === 1
  if (isUnion || s.patternProperties) return out
  for (const name of s.required ?? []) {
    const value = emptyValue(s.properties?.[name] ?? {})
    if (value !== undefined) out[name] = value
  }
  return out
}
