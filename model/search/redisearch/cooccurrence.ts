/**
 * Facet co-occurrence, pure: for each facet value of an index, how many of its documents have each other facet
 * value (companions.ts keeps them, one hash per value, `<index>:co:<field>:<value>`, member `<field'>\x1f<value'>`).
 * With them, the facet counts of a query that asks for one facet value alone (`platform:hive`, `tags:Legacy`, or
 * `*` with one facet value picked: the UI's first click) are one read bounded by the values that co-occur with it,
 * however many documents it matches (soleFacet.ts), where counting its matches' facet lines walked them all.
 * A document moves the counts by the difference of its pairs before and after a write, so an unchanged document
 * moves nothing and a restatement (remove, then add) puts back what it took.
 */
import type { FacetCounts } from './facets.ts'

/** Between a field and a value in a pair's member (no facet field name or facet value holds it: fields.ts). */
const PAIR_SEP = '\u001f'

/** The member of a co-occurrence hash naming a facet field and value. */
export const pairMember = (field: string, value: string): string => `${field}${PAIR_SEP}${value}`

/** One count to move: documents with `field` = `value` that also have `other` (a pairMember). */
export interface PairChange {
  field: string
  value: string
  other: string
  delta: number
}

/** field -> the document's distinct facet values of it. */
export type DocumentFacets = ReadonlyMap<string, ReadonlySet<string>>

/** Every (field, value) of a document, as pair members. */
function membersOf(doc: DocumentFacets): Set<string> {
  const members = new Set<string>()
  for (const [field, values] of doc) for (const v of values) members.add(pairMember(field, v))
  return members
}

/** The counts a document moves from `before` to `after` (either empty for no document): its pairs gained and lost. */
export function pairChanges(before: DocumentFacets, after: DocumentFacets): PairChange[] {
  const old = membersOf(before)
  const now = membersOf(after)
  const changes: PairChange[] = []
  const visit = (doc: DocumentFacets, own: Set<string>, other: Set<string>, delta: number) => {
    for (const [field, values] of doc) {
      for (const value of values) {
        const member = pairMember(field, value)
        for (const m of own) {
          // A pair present on both sides is unchanged.
          if (m !== member && !(other.has(m) && other.has(member))) changes.push({ field, value, other: m, delta })
        }
      }
    }
  }
  visit(before, old, now, -1)
  visit(after, now, old, 1)
  return changes
}

/**
 * The facet counts of the documents having `field` = `value` (`total` of them), from its co-occurrence hash
 * (HGETALL's flat reply); a count of 0 or less (a pair whose last document left) is no count.
 */
export function cooccurringCounts(facets: readonly string[], field: string, value: string, total: number, hash: readonly string[]): FacetCounts {
  const counts: FacetCounts = new Map(facets.map((f) => [f, new Map<string, number>()]))
  if (total > 0) counts.get(field)?.set(value, total)
  for (let i = 0; i + 1 < hash.length; i += 2) {
    const n = Number(hash[i + 1])
    if (!(n > 0)) continue
    const member = hash[i]!
    const cut = member.indexOf(PAIR_SEP)
    counts.get(member.slice(0, cut))?.set(member.slice(cut + 1), n)
  }
  return counts
}
