/**
 * What an entity's first write creates besides what it carries: the key aspect (from the urn) and the entity
 * type's default aspects (browse paths, platform instance) that the write did not give.
 */
import type { DefaultAspect } from '../entities.ts'
import type { AspectWrite } from '../jobs.ts'
import { splitTuple, urnId, type ParsedUrn } from '../urn.ts'

/**
 * Fills `{field}`, `{field:id}`, `{field:path}` and `{field:N}` (part N of a tuple urn held by the field: a job's
 * flow `urn:svc:dataFlow:(airflow,dag,prod)` gives `airflow` for `{flow:0}`) placeholders of a default aspect
 * template from the key.
 */
export function fillTemplate(template: unknown, key: Record<string, string>, lowercase: boolean): unknown {
  if (typeof template === 'string') {
    const filled = template.replace(/\{(\w+)(?::(id|path|\d+))?\}/g, (_, field: string, how?: string) => {
      const value = key[field] ?? ''
      if (how === 'id') return urnId(value)
      if (how === 'path') return value.replaceAll('.', '/')
      if (how !== undefined) return splitTuple(urnId(value))?.[Number(how)] ?? ''
      return value
    })
    return lowercase ? filled.toLowerCase() : filled
  }
  if (Array.isArray(template)) return template.map((t) => fillTemplate(t, key, lowercase))
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, key, lowercase)]))
  }
  return template
}

/** The aspects a first write adds: the key aspect, then each default the write does not carry itself. */
export function firstWriteAspects(parsed: ParsedUrn, given: ReadonlySet<string>): AspectWrite[] {
  const added: AspectWrite[] = [{ name: parsed.entity.keyAspect, value: parsed.key }]
  for (const d of parsed.entity.defaults ?? ([] as DefaultAspect[])) {
    if (!given.has(d.aspect)) added.push({ name: d.aspect, value: fillTemplate(d.template, parsed.key, d.lowercase ?? false) })
  }
  return added
}
