/** What the search engines are asked and answer: queries, filters, hits, facets, suggestions. */
import type { EntitySpec } from '../entities.ts'

export const CONDITIONS = ['EQUAL', 'CONTAIN', 'START_WITH', 'END_WITH', 'GREATER_THAN', 'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN', 'LESS_THAN_OR_EQUAL_TO'] as const
export type Condition = (typeof CONDITIONS)[number]

/** One filter criterion, checked: its field exists; `values` are alternatives (any matches). */
export interface Criterion {
  field: string
  condition: Condition
  values: string[]
  negated: boolean
  /** The field holds numbers (range conditions compare numerically). */
  numeric: boolean
}

/** `or` of `and` groups. An empty list means no filter. */
export type FilterGroups = Criterion[][]

/** What free text asks for. */
export type TextQuery =
  | { kind: 'all' }
  | { kind: 'words'; words: { token: string; prefix: boolean }[] }
  | { kind: 'field'; field: string; value: string }

export interface SearchQuery {
  entity: EntitySpec
  text: TextQuery
  filter: FilterGroups
  start: number
  count: number
}

export interface Facet {
  name: string
  aggregations: Record<string, number>
}


export interface AutocompleteQuery {
  entity: EntitySpec
  query: string
  filter: FilterGroups
  limit: number
}
