/**
 * Queries a gateway asks itself before it reports ready, where its engine answers queries in this process (the
 * native engine's copies: SearchEngine.queriesInProcess). The first queries of a new gateway otherwise pay for V8
 * compiling the query code and for the tables the copies make on a word's or value's first use (facetTallies.ts):
 * in the live benchmark (100,000 datasets, 8 query loops, 200 writes/s) a gateway's first second answered about
 * 80 queries at a median of 130 ms where it then answered 500 a second at 20 ms, and the writes queued behind them.
 *
 * The queries are the kinds people ask (a word, two words, a prefix, `field:value`, a facet value picked, the name
 * conditions, a deeper page, autocomplete), drawn from what the catalogue holds: words from the urns of the first
 * matches of each type, values from its facets. Only types with at least `minDocuments` are warmed (below, a query
 * counts its few matches cheaply even cold), the largest first, kinds interleaved so that the time budget, when it
 * cuts, leaves no kind out. Read-only: nothing is written, and a query that fails is skipped.
 */
import type { EntitySpec } from '../entities.ts'
import type { Registry } from '../registry.ts'
import type { SearchService } from './service.ts'

export interface WarmOptions {
  /** Time to spend at most. */
  budgetMs: number
  /** Documents a type needs to be warmed. */
  minDocuments: number
}

/** What warming asked. */
export interface Warmed {
  types: number
  queries: number
  ms: number
}

type Ask = () => Promise<unknown>

const WORDS_PER_TYPE = 200
const MATCHES_READ = 100
const FIRST = { start: 0, count: 10 }

/** Asks each warm-up query in turn until the budget is spent. */
export async function warmQueries(search: SearchService, registry: Registry, { budgetMs, minDocuments }: WarmOptions): Promise<Warmed> {
  const began = performance.now()
  const spent = () => performance.now() - began
  const sized: { entity: EntitySpec; total: number; urns: string[]; facets: { name: string; values: string[] }[] }[] = []
  for (const entity of registry.entities) {
    if (budgetMs <= 0 || spent() > budgetMs) break
    const first = await search.search({ entity, input: '*', start: 0, count: MATCHES_READ }).catch(() => undefined)
    if (!first || first.numEntities < minDocuments) continue
    const facets = first.metadata.searchResultMetadatas.map((f) => ({ name: f.name, values: Object.keys(f.aggregations) }))
    sized.push({ entity, total: first.numEntities, urns: first.entities, facets })
  }
  sized.sort((a, b) => b.total - a.total)
  let queries = 0
  for (const { entity, total, urns, facets } of sized) {
    for (const ask of interleave(asksFor(search, registry, entity, total, wordsOf(urns, entity), facets))) {
      if (spent() > budgetMs) return { types: sized.length, queries, ms: spent() }
      await ask().catch(() => undefined)
      queries++
    }
  }
  return { types: sized.length, queries, ms: spent() }
}

/** Distinct words (3 letters or more) of `urns`, but `urn` and the type's name, which every urn of the type has. */
export function wordsOf(urns: readonly string[], entity: EntitySpec): string[] {
  const scaffold = new Set(['urn', entity.name.toLowerCase()])
  const words = new Set<string>()
  for (const urn of urns) {
    for (const word of urn.toLowerCase().split(/[^a-z]+/)) if (word.length >= 3 && !scaffold.has(word)) words.add(word)
  }
  return [...words].slice(0, WORDS_PER_TYPE)
}

/** One list of asks per kind of query. */
function asksFor(search: SearchService, registry: Registry, entity: EntitySpec, total: number, words: string[], facets: { name: string; values: string[] }[]): Ask[][] {
  const name = [...registry.searchFields(entity).values()].find((f) => f.autocomplete)?.name
  const where = (field: string, condition: string, value: string) => ({ or: [{ and: [{ field, condition, value }] }] })
  const ask = (input: string, extra: { start?: number; filter?: unknown } = {}): Ask => () => search.search({ entity, input, ...FIRST, ...extra })
  const values = facets.flatMap((f) => f.values.map((value) => ({ field: f.name, value })))
  const deep = Math.max(0, Math.min(total - FIRST.count, 1000))
  return [
    words.map((w) => ask(w)),
    words.map((w, i) => ask(`${w} ${words[(i + 1) % words.length]}`)),
    words.map((w) => ask(`${w.slice(0, 3)}*`)),
    words.map((w) => ask(w, { start: deep })),
    words.map((w) => () => search.autocomplete({ entity, query: w.slice(0, 3), limit: 10 })),
    values.map(({ field, value }) => ask(`${field}:${value}`)),
    values.map(({ field, value }, i) => ask(words[i % Math.max(1, words.length)] ?? '*', { filter: where(field, 'EQUAL', value) })),
    ...(name ? [
      words.map((w) => ask('*', { filter: where(name, 'CONTAIN', w) })),
      words.map((w) => ask('*', { filter: where(name, 'START_WITH', w.slice(0, 3)) })),
      words.map((w) => ask('*', { filter: where(name, 'END_WITH', w.slice(-3)) })),
      words.map((w) => ask('*', { filter: where(name, 'GREATER_THAN', w) })),
    ] : []),
  ]
}

/** The first of every list, then the second of every list, and so on. */
export function* interleave<T>(lists: readonly (readonly T[])[]): Generator<T> {
  const longest = Math.max(0, ...lists.map((l) => l.length))
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) yield list[i]!
}
