/**
 * A filter a gateway checks on its own copies of the index (indexMirror.ts), with nothing of it sent to Redis:
 * criteria on facet values (EQUAL on a facet field), checked on the copy of the documents' facet values, and
 * conditions on a paired field (a name's CONTAIN, END_WITH, START_WITH or range), whose documents the copy of the
 * field's pairs finds. As the documents never reach a script, their number is not bounded by MAX_FILTER_VALUES: a
 * `name GREATER_THAN` matching half the catalogue is answered, at a cost in this process that grows with its matches
 * (reading them in the pairs' order, the page's urns, the facet counts), and none in Redis. Any other criterion (a
 * numeric range, EQUAL on a field without facets, the urn) leaves the whole filter to the search script.
 */
import { pairedField } from './indexMirror.ts'
import { isPairCondition, type Numbers } from './pairsCopy.ts'
import type { SearchField } from '../../registry.ts'
import type { Criterion, FilterGroups } from '../types.ts'
import { FIELD_SEP, VALUE_SEP } from './entries.ts'
import { hasBit, type FacetCopy } from './facetCopy.ts'
import type { FacetTallies } from './facetTallies.ts'

/** A filter criterion checked on the copy of the facet values: one of `values` (lower-cased) in `field`. */
export interface FacetCriterion { field: string; values: string[]; negated: boolean; urn: boolean }

/** A criterion as the gateway checks it: on facet values, or a paired field's condition (resolved to documents). */
export type LocalCriterion = { facet: FacetCriterion } | { paired: Criterion }

/**
 * A local criterion once its paired condition is resolved to the numbers of the documents it matches (`field`: the
 * paired field, whose copy has their urns).
 */
export type ResolvedCriterion = { facet: FacetCriterion } | { numbers: Numbers; field: string; negated: boolean }

/** The criterion as one on facet values (EQUAL on a facet field, values free of the facet line's separators), or null. */
export function facetCriterionOf(fields: ReadonlyMap<string, SearchField>, c: Criterion): FacetCriterion | null {
  const spec = fields.get(c.field)
  if (c.condition !== 'EQUAL' || c.numeric || !spec?.facet || c.field === 'urn') return null
  const values = c.values.map((v) => v.toLowerCase())
  if (values.some((v) => v.includes(FIELD_SEP) || v.includes(VALUE_SEP))) return null
  return { field: c.field, values, negated: c.negated, urn: spec.type === 'URN' }
}

/** Whether a criterion is a condition on a paired field that its copy of the pairs answers. */
export function pairedCondition(fields: ReadonlyMap<string, SearchField>, c: Criterion): boolean {
  const spec = fields.get(c.field)
  if (c.numeric || spec === undefined || !pairedField(spec)) return false
  return isPairCondition(c.condition)
}

/** The filter as local criteria when every criterion is one; else null (the script resolves it). */
export function localCriteriaOf(fields: ReadonlyMap<string, SearchField>, filter: FilterGroups): LocalCriterion[][] | null {
  const groups: LocalCriterion[][] = []
  for (const group of filter) {
    const criteria: LocalCriterion[] = []
    for (const c of group) {
      const facet = facetCriterionOf(fields, c)
      if (facet) criteria.push({ facet })
      else if (pairedCondition(fields, c)) criteria.push({ paired: c })
      else return null
    }
    groups.push(criteria)
  }
  return groups
}

/**
 * Which documents the resolved criteria accept (undefined: no filter): groups are OR-ed, a group's criteria AND-ed.
 * A URN field's value also matches by its id (criterionValueIds), as its postings do (documentOps.ts
 * aliases).
 */
export function localCheck(facets: FacetCopy, groups: readonly ResolvedCriterion[][], tallies?: FacetTallies): ((number: number) => boolean) | undefined {
  if (groups.length === 0) return undefined
  const checks = groups.map((group) => group.map((c): ((number: number) => boolean) => {
    if ('numbers' in c) {
      const found = documentSet(c.numbers)
      return c.negated ? (n) => !hasDocument(found, n) : (n) => hasDocument(found, n)
    }
    const ids = criterionValueIds(facets, c.facet)
    // One frequent value: a bit of its documents' bitmap (facetTallies.ts) rather than a look at the document's values.
    const bitmap = ids.length === 1 ? tallies?.documentsOf(ids[0]!) : undefined
    if (bitmap) return c.facet.negated ? (n) => !hasBit(bitmap, n) : (n) => hasBit(bitmap, n)
    const mask = facets.valueMask(ids)
    return c.facet.negated ? (n) => !facets.hasMarked(n, mask) : (n) => facets.hasMarked(n, mask)
  }))
  // Called once per candidate document (thousands a query): a single criterion is its own check.
  if (checks.length === 1 && checks[0]!.length === 1) return checks[0]![0]!
  return (number) => checks.some((group) => group.every((check) => check(number)))
}

/** The ids of the values a facet criterion names; a URN field's value also by its id (`s3` names `urn:svc:dataPlatform:s3`). */
export function criterionValueIds(facets: FacetCopy, c: FacetCriterion): number[] {
  const wanted = new Set(c.values)
  return facets.values.idsOf(c.field).filter((id) => wanted.has(facets.values.lower(id)) || (c.urn && wanted.has(facets.values.urnIdOf(id))))
}

/** The documents a query without words may be answered from, and the paired fields whose copies have their urns. */
export interface Candidates { numbers: Numbers; fields: string[] }

/**
 * The documents a query without words may be answered from: in each group, the shortest list of a paired condition
 * not negated, and their union over the groups; undefined when a group has none (its documents are every document
 * with the facet values: the script answers those from its postings).
 */
export function localCandidates(groups: readonly ResolvedCriterion[][]): Candidates | undefined {
  if (groups.length === 0) return undefined
  const lists: { numbers: Numbers; field: string }[] = []
  for (const group of groups) {
    let shortest: { numbers: Numbers; field: string } | undefined
    for (const c of group) if ('numbers' in c && !c.negated && (!shortest || c.numbers.length < shortest.numbers.length)) shortest = c
    if (!shortest) return undefined
    lists.push(shortest)
  }
  const fields = [...new Set(lists.map((l) => l.field))]
  return { numbers: lists.length === 1 ? lists[0]!.numbers : lists.flatMap((l) => [...l.numbers]), fields }
}

/**
 * A set of documents: bit n is document n (most significant bit first, as Redis's SETBIT numbers them), and how many;
 * for a set made from fewer than LISTED numbers, also its documents' numbers, each once, in no order (counting or
 * paging a few hundred documents from the list costs less than reading every byte of the bitmap).
 */
export interface DocumentSet { bitmap: Buffer; count: number; numbers?: number[] }

/** Numbers under which a document set also lists them. */
const LISTED = 4096

/** The documents of `numbers` that `accept` takes (every one without it), each once. */
export function documentSet(numbers: Numbers, accept?: (number: number) => boolean): DocumentSet {
  let max = -1
  for (let i = 0; i < numbers.length; i++) if (numbers[i]! > max) max = numbers[i]!
  const bitmap = Buffer.alloc((max >> 3) + 1)
  if (numbers.length < LISTED) {
    const listed: number[] = []
    for (let i = 0; i < numbers.length; i++) {
      const n = numbers[i]!
      const bit = 0x80 >> (n & 7)
      if ((bitmap[n >> 3]! & bit) !== 0 || (accept && !accept(n))) continue
      bitmap[n >> 3]! |= bit
      listed.push(n)
    }
    return { bitmap, count: listed.length, numbers: listed }
  }
  if (!accept) {
    // Tens of thousands of numbers for a broad condition (a name's range lists a document once per name it has):
    // bits set without a test each, then counted by byte.
    for (let i = 0; i < numbers.length; i++) bitmap[numbers[i]! >> 3]! |= 0x80 >> (numbers[i]! & 7)
    let count = 0
    for (let at = 0; at < bitmap.length; at++) count += BITS_IN[bitmap[at]!]!
    return { bitmap, count }
  }
  let count = 0
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i]!
    const bit = 0x80 >> (n & 7)
    if ((bitmap[n >> 3]! & bit) !== 0 || !accept(n)) continue
    bitmap[n >> 3]! |= bit
    count++
  }
  return { bitmap, count }
}

/** The number of bits set in each byte value. */
const BITS_IN = Uint8Array.from({ length: 256 }, (_, byte) => {
  let bits = 0
  for (let b = byte; b !== 0; b &= b - 1) bits++
  return bits
})

/** Whether document `number` is in the set. */
export const hasDocument = (set: DocumentSet, number: number): boolean => hasBit(set.bitmap, number)

/** The set's document numbers, in increasing order. */
export function documentNumbers(set: DocumentSet): number[] {
  const out: number[] = []
  eachBit(set.bitmap, (number) => { out.push(number) })
  return out
}

/**
 * Visits the numbers of the bits `bitmap` sets, in increasing order, reading it by byte and visiting only those bits,
 * until `visit` answers false; answers false when it stopped so.
 */
export function eachBit(bitmap: Uint8Array, visit: (number: number) => boolean | void): boolean {
  for (let at = 0; at < bitmap.length; at++) {
    for (let bits = bitmap[at]!; bits !== 0;) {
      const bit = Math.clz32(bits) - 24
      bits ^= 0x80 >> bit
      if (visit(at * 8 + bit) === false) return false
    }
  }
  return true
}
