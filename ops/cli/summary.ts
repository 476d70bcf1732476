/**
 * The ingest summary: accepted and rejected counts, and the rejections grouped by error code with a few example
 * messages each, so a run over thousands of records says what went wrong in a screenful.
 */

/** The outcome of one proposal (or of one record that never reached the service). */
export interface Outcome {
  accepted: boolean
  code?: string
  message?: string
}

export interface Summary {
  accepted: number
  rejected: number
  /** Rejections by code, most frequent first. */
  byCode: { code: string; count: number; examples: string[] }[]
}

const EXAMPLES = 3

/** Tallies outcomes; pure. */
export function summarize(outcomes: Iterable<Outcome>): Summary {
  let accepted = 0
  let rejected = 0
  const groups = new Map<string, { code: string; count: number; examples: string[] }>()
  for (const o of outcomes) {
    if (o.accepted) { accepted++; continue }
    rejected++
    const code = o.code ?? 'UNKNOWN'
    const group = groups.get(code) ?? { code, count: 0, examples: [] }
    group.count++
    if (o.message && group.examples.length < EXAMPLES && !group.examples.includes(o.message)) group.examples.push(o.message)
    groups.set(code, group)
  }
  return { accepted, rejected, byCode: [...groups.values()].sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)) }
}

/** The summary as printed at the end of an ingest run. */
export function formatSummary(s: Summary): string {
  const lines = [`accepted: ${s.accepted}`, `rejected: ${s.rejected}`]
  for (const g of s.byCode) {
    lines.push(`  ${g.code}: ${g.count}`)
    for (const e of g.examples) lines.push(`    e.g. ${e}`)
  }
  return `${lines.join('\n')}\n`
}
