/**
 * The ingest summary: accepted and rejected counts, the rejections grouped by error code with a few example
 * messages each, and by entity type with their codes, so a run over thousands of records says in a screenful what
 * went wrong and which kinds of records the service refused (e.g. entity types its registry does not have).
 */

/** The outcome of one proposal (or of one record that never reached the service). */
export interface Outcome {
  accepted: boolean
  code?: string
  message?: string
  /** The entity type the proposal or record was about, when known. */
  entityType?: string
}

export interface Summary {
  accepted: number
  rejected: number
  /** Rejections by code, most frequent first. */
  byCode: { code: string; count: number; examples: string[] }[]
  /** Rejections by entity type (`unknown` when none could be told), most frequent first, with their codes. */
  byEntityType: { entityType: string; count: number; codes: string[] }[]
}

const EXAMPLES = 3

/** Tallies outcomes; pure. */
export function summarize(outcomes: Iterable<Outcome>): Summary {
  let accepted = 0
  let rejected = 0
  const groups = new Map<string, { code: string; count: number; examples: string[] }>()
  const types = new Map<string, { entityType: string; count: number; codes: string[] }>()
  for (const o of outcomes) {
    if (o.accepted) { accepted++; continue }
    rejected++
    const code = o.code ?? 'UNKNOWN'
    const entityType = o.entityType ?? 'unknown'
    const byType = types.get(entityType) ?? { entityType, count: 0, codes: [] }
    byType.count++
    if (!byType.codes.includes(code)) byType.codes.push(code)
    types.set(entityType, byType)
    const group = groups.get(code) ?? { code, count: 0, examples: [] }
    group.count++
    if (o.message && group.examples.length < EXAMPLES && !group.examples.includes(o.message)) group.examples.push(o.message)
    groups.set(code, group)
  }
  return {
    accepted, rejected,
    byCode: [...groups.values()].sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
    byEntityType: [...types.values()].sort((a, b) => b.count - a.count || a.entityType.localeCompare(b.entityType)),
  }
}

/** The summary as printed at the end of an ingest run. */
export function formatSummary(s: Summary): string {
  const lines = [`accepted: ${s.accepted}`, `rejected: ${s.rejected}`]
  for (const g of s.byCode) {
    lines.push(`  ${g.code}: ${g.count}`)
    for (const e of g.examples) lines.push(`    e.g. ${e}`)
  }
  if (s.rejected > 0) {
    lines.push('rejected by entity type:')
    for (const t of s.byEntityType) lines.push(`  ${t.entityType}: ${t.count} (${t.codes.join(', ')})`)
  }
  return `${lines.join('\n')}\n`
}
