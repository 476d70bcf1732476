/**
 * An entity's timeline, pure: change events derived from the version history of its aspects, grouped the way
 * upstream's timeline service groups them (one transaction per moment of change, oldest first; categories
 * TECHNICAL_SCHEMA, DOCUMENTATION, TAG, GLOSSARY_TERM, OWNER, DOMAIN, DEPRECATION). Each transaction carries a
 * semantic version computed as upstream does: a removed schema field is a MAJOR change, an added one MINOR,
 * anything else PATCH.
 */
import type { Envelope } from './derive/envelope.ts'

export const CATEGORIES = ['TECHNICAL_SCHEMA', 'DOCUMENTATION', 'TAG', 'GLOSSARY_TERM', 'OWNER', 'DOMAIN', 'DEPRECATION'] as const
export type Category = (typeof CATEGORIES)[number]
type SemVerChange = 'MAJOR' | 'MINOR' | 'PATCH' | 'NONE'

export interface ChangeEvent {
  entityUrn: string
  category: Category
  operation: 'ADD' | 'REMOVE' | 'MODIFY'
  modifier?: string
  auditStamp: { time: number; actor: string }
  description: string
  semVerChange: SemVerChange
  parameters?: Record<string, unknown>
}

export interface ChangeTransaction {
  timestamp: number
  actor: string
  semVer: string
  semVerChange: SemVerChange
  versionStamp: string
  changeEvents: ChangeEvent[]
}

type Value = Record<string, unknown> | undefined
type Differ = (urn: string, before: Value, after: Value, stamp: ChangeEvent['auditStamp']) => ChangeEvent[]

const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v as Record<string, unknown>[] : [])

/** ADD/REMOVE events for the members of an array (by `key`) that came or went. */
function membership(category: Category, field: string, key: string, noun: string): Differ {
  return (urn, before, after, auditStamp) => {
    const was = new Set(list(before?.[field]).map((m) => String(m[key])))
    const is = new Set(list(after?.[field]).map((m) => String(m[key])))
    const events: ChangeEvent[] = []
    for (const m of is) if (!was.has(m)) events.push({ entityUrn: urn, category, operation: 'ADD', modifier: m, auditStamp, semVerChange: 'MINOR', description: `${noun} '${m}' added to entity '${urn}'.` })
    for (const m of was) if (!is.has(m)) events.push({ entityUrn: urn, category, operation: 'REMOVE', modifier: m, auditStamp, semVerChange: 'MINOR', description: `${noun} '${m}' removed from entity '${urn}'.` })
    return events
  }
}

/** ADD/MODIFY/REMOVE of a text field (a description). */
function text(category: Category, field: string): Differ {
  return (urn, before, after, auditStamp) => {
    const was = before?.[field] as string | undefined
    const is = after?.[field] as string | undefined
    if (was === is) return []
    const operation = was === undefined ? 'ADD' : is === undefined ? 'REMOVE' : 'MODIFY'
    return [{ entityUrn: urn, category, operation, auditStamp, semVerChange: 'MINOR', description: `Documentation of '${urn}' ${operation === 'ADD' ? 'added' : operation === 'REMOVE' ? 'removed' : 'changed'}.`, parameters: { [field]: is ?? null, previous: was ?? null } }]
  }
}

/** Schema fields added (MINOR), removed (MAJOR) or retyped (MAJOR), as upstream's schema differ grades them. */
const schemaFields: Differ = (urn, before, after, auditStamp) => {
  const byPath = (v: Value) => new Map(list(v?.fields).map((f) => [String(f.fieldPath), f]))
  const was = byPath(before)
  const is = byPath(after)
  const events: ChangeEvent[] = []
  for (const [path, field] of is) {
    const old = was.get(path)
    if (!old) events.push({ entityUrn: urn, category: 'TECHNICAL_SCHEMA', operation: 'ADD', modifier: path, auditStamp, semVerChange: 'MINOR', description: `A forwards & backwards compatible change due to the newly added field '${path}'.` })
    else if (old.nativeDataType !== field.nativeDataType) events.push({ entityUrn: urn, category: 'TECHNICAL_SCHEMA', operation: 'MODIFY', modifier: path, auditStamp, semVerChange: 'MAJOR', description: `A backwards incompatible change due to native datatype of the field '${path}' being changed from '${String(old.nativeDataType)}' to '${String(field.nativeDataType)}'.` })
  }
  for (const path of was.keys()) if (!is.has(path)) events.push({ entityUrn: urn, category: 'TECHNICAL_SCHEMA', operation: 'REMOVE', modifier: path, auditStamp, semVerChange: 'MAJOR', description: `A backwards incompatible change due to removal of field: '${path}'.` })
  return events
}

const deprecation: Differ = (urn, before, after, auditStamp) => {
  const was = before?.deprecated === true
  const is = after?.deprecated === true
  if (was === is) return []
  return [{ entityUrn: urn, category: 'DEPRECATION', operation: 'MODIFY', auditStamp, semVerChange: 'MINOR', description: `Deprecation status of '${urn}' changed to ${is ? 'DEPRECATED' : 'ACTIVE'}.`, parameters: { status: is ? 'DEPRECATED' : 'ACTIVE' } }]
}

/** Which aspects feed which category, and how they are compared. */
const DIFFERS: Record<Category, [aspect: string | RegExp, Differ][]> = {
  TECHNICAL_SCHEMA: [['schemaMetadata', schemaFields]],
  DOCUMENTATION: [[/^(editable)?[a-zA-Z]*Properties$/, text('DOCUMENTATION', 'description')], ['institutionalMemory', membership('DOCUMENTATION', 'elements', 'url', 'Link')]],
  TAG: [['globalTags', membership('TAG', 'tags', 'tag', 'Tag')]],
  GLOSSARY_TERM: [['glossaryTerms', membership('GLOSSARY_TERM', 'terms', 'urn', 'Term')]],
  OWNER: [['ownership', membership('OWNER', 'owners', 'owner', 'Owner')]],
  DOMAIN: [['domains', (urn, b, a, s) => membership('DOMAIN', 'd', 'd', 'Domain')(urn, { d: list(b?.domains as unknown).map((d) => ({ d })) }, { d: list(a?.domains as unknown).map((d) => ({ d })) }, s)]],
  DEPRECATION: [['deprecation', deprecation]],
}

const matches = (pattern: string | RegExp, aspect: string) => (typeof pattern === 'string' ? pattern === aspect : pattern.test(aspect))
const RANK: Record<SemVerChange, number> = { NONE: 0, PATCH: 1, MINOR: 2, MAJOR: 3 }

/**
 * The timeline of `urn` from its aspects' histories (aspect -> version -> envelope, 1 = oldest), for `categories`,
 * keeping transactions with startTime <= timestamp <= endTime.
 */
export function timeline(urn: string, histories: ReadonlyMap<string, ReadonlyMap<number, Envelope>>, categories: readonly Category[], startTime: number, endTime: number): ChangeTransaction[] {
  const byTime = new Map<number, { events: ChangeEvent[]; stamps: string[]; actor: string }>()
  for (const [aspect, versions] of histories) {
    const differs = categories.flatMap((c) => DIFFERS[c].filter(([pattern]) => matches(pattern, aspect)).map(([, d]) => d))
    if (differs.length === 0) continue
    let previous: Value
    for (const version of [...versions.keys()].sort((a, b) => a - b)) {
      const env = versions.get(version)!
      const current = env.value as Value
      const events = differs.flatMap((d) => d(urn, previous, current, env.created))
      previous = current
      if (events.length === 0) continue
      const moment = byTime.get(env.created.time) ?? { events: [], stamps: [], actor: env.created.actor }
      moment.events.push(...events)
      moment.stamps.push(`${aspect}:${version}`)
      byTime.set(env.created.time, moment)
    }
  }
  let [major, minor, patch] = [0, 0, 0]
  const transactions: ChangeTransaction[] = []
  for (const time of [...byTime.keys()].sort((a, b) => a - b)) {
    const moment = byTime.get(time)!
    const change = moment.events.reduce<SemVerChange>((worst, e) => (RANK[e.semVerChange] > RANK[worst] ? e.semVerChange : worst), 'NONE')
    if (change === 'MAJOR') [major, minor, patch] = [major + 1, 0, 0]
    else if (change === 'MINOR') [minor, patch] = [minor + 1, 0]
    else patch++
    if (time < startTime || time > endTime) continue
    transactions.push({ timestamp: time, actor: moment.actor, semVer: `${major}.${minor}.${patch}-computed`, semVerChange: change, versionStamp: moment.stamps.sort().join(';'), changeEvents: moment.events })
  }
  return transactions
}
