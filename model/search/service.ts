/**
 * Search, autocomplete and browse as the API answers them: parses inputs and filters, asks the engine, reads the
 * hits' documents for matched fields, and shapes the responses of SPEC.md routes 5-7.
 */
import type { EntitySpec } from '../entities.ts'
import { sameItems } from '../positions.ts'
import type { Registry } from '../registry.ts'
import { readDocuments } from '../store/documents.ts'
import { DEEP_PAGE } from '../store/gather.ts'
import type { Keys } from '../store/keys.ts'
import type { RedisClient } from '../store/redis.ts'
import { browse } from './browse.ts'
import type { SearchEngine, ShardHits } from './engine.ts'
import { shardFacetValues } from './limits.ts'
import { matchedFields } from './matches.ts'
import { mergeHits, shardWindows } from './merge.ts'
import { parseFilter, parseInput } from './query.ts'
import type { Facet, SearchQuery } from './types.ts'
import { SORT_WINDOW, lastChanged, sortName, sortUrns, type SortOrder } from './sort.ts'
import { decodeScrollId, encodeScrollId, scrollPage, type ScrollOrder } from './scroll.ts'

export const MAX_PAGE = 10_000

export interface SearchRequest { entity: EntitySpec; input: string; start: number; count: number; filter?: unknown; sort?: SortOrder }
export interface AutocompleteRequest { entity: EntitySpec; query: string; limit: number; filter?: unknown }
export interface BrowseRequest { entity: EntitySpec; path: string; start: number; limit: number }
export interface ScrollSearchRequest { entities: readonly EntitySpec[]; input: string; filter?: unknown; count: number; order: ScrollOrder; scrollId?: string }

export class SearchService {
  private readonly redis: RedisClient
  private readonly registry: Registry
  private readonly keys: Keys
  private readonly engine: SearchEngine
  /** Values each facet of an answer reports at most (SEARCH_FACET_VALUES), and each shard therefore. */
  private readonly facetValues: number
  private readonly shardFacetValues: number

  constructor(redis: RedisClient, registry: Registry, keys: Keys, engine: SearchEngine, facetValues: number) {
    this.redis = redis
    this.registry = registry
    this.keys = keys
    this.engine = engine
    this.facetValues = facetValues
    this.shardFacetValues = shardFacetValues(facetValues, keys.shards)
  }

  /** Route 6's `value`. */
  async search(req: SearchRequest) {
    const text = parseInput(this.registry, req.entity, req.input)
    const filter = parseFilter(this.registry, req.entity, req.filter)
    const count = Math.min(req.count, MAX_PAGE)
    const query = { entity: req.entity, text, filter, start: req.start, count }
    if (req.sort && req.sort !== 'relevance') return this.sorted(req, query, req.sort)
    // One shard answers the page itself; several each answer their first start+count, merged in one order (or,
    // for a match-all the engine pages across shards itself, only their totals and facets).
    const single = this.keys.shards === 1
    const page = single ? null : (await this.engine.matchAllPage?.(query, req.start, count)) ?? null
    // Several shards: the page as the engine guesses it (before its shards' reads), whose documents are read beside
    // those reads, and kept when the merged page is the same.
    const guessed = single || text.kind === 'all' ? undefined : this.engine.guessPage?.(query, req.start, count)
    const early = guessed && guessed.length > 0 ? this.documents(req.entity, guessed) : undefined
    // One shard also answers its page's documents (each of several would send its first start+count), which only
    // the matched fields of a query of text read.
    const ask = (shard: number, size: number) => this.engine.searchShard(shard, query, single ? req.start : 0, size,
      { documents: single && text.kind !== 'all', facetValues: this.shardFacetValues })
    // A deep page of several shards (not guessed): each asked for its share of the hits before it (merge.ts shardWindows).
    const window = single ? count : page ? 0 : req.start + count
    const shards = !single && !guessed && window >= DEEP_PAGE
      ? await shardWindows(this.keys.allShards(), window, ask)
      : await Promise.all(this.keys.allShards().map((shard) => ask(shard, window)))
    const merged = await this.merged(req.entity, shards, req.start, count)
    const hits = page ? { ...merged, urns: page } : merged
    const stored = single ? shards[0]!.documents : early && sameItems(guessed!, hits.urns) ? await early : undefined
    return this.answer(req, query, hits, stored)
  }

  /** The shards' answers as one (merge.ts), with the facets the engine sums itself when its shards gave counts. */
  private async merged(entity: EntitySpec, shards: readonly ShardHits[], start: number, count: number) {
    const merged = mergeHits(shards, start, count, this.facetValues)
    const counts = shards.flatMap((s) => (s.counts ? [s.counts] : []))
    if (counts.length > 0 && this.engine.facetsOf) merged.facets = await this.engine.facetsOf(entity, counts, this.facetValues)
    return merged
  }

  /** A page in another order than relevance: the SORT_WINDOW most relevant matches re-ordered (model/search/sort.ts). */
  private async sorted(req: SearchRequest, query: SearchQuery, order: Exclude<SortOrder, 'relevance'>) {
    const ask = (shard: number, size: number) => this.engine.searchShard(shard, query, 0, size, { facetValues: this.shardFacetValues })
    const shards = this.keys.shards > 1 ? await shardWindows(this.keys.allShards(), SORT_WINDOW, ask) : [await ask(0, SORT_WINDOW)]
    const window = await this.merged(req.entity, shards, 0, SORT_WINDOW)
    let keyOf: (urn: string) => string | number
    if (order === 'name') {
      const names = [...this.registry.searchFields(req.entity).values()].filter((f) => f.autocomplete).map((f) => f.name)
      const docs = await this.documents(req.entity, window.urns)
      const byUrn = new Map(window.urns.map((urn, i) => [urn, sortName(urn, docs[i] ? JSON.parse(docs[i]!) as Record<string, string[]> : null, names)]))
      keyOf = (urn) => byUrn.get(urn)!
    } else {
      const envelopes = await Promise.all(window.urns.map((urn) => this.redis.hvals(this.keys.latest(urn)).catch(() => [] as string[])))
      const byUrn = new Map(window.urns.map((urn, i) => [urn, lastChanged(envelopes[i]!)]))
      keyOf = (urn) => byUrn.get(urn)!
    }
    const urns = sortUrns(window.urns, order, keyOf).slice(query.start, query.start + query.count)
    return this.answer(req, query, { ...window, urns })
  }

  /** Route 6's `value` for a page of hits: matched fields from the hits' documents (`stored`, or read here). */
  private async answer(req: SearchRequest, query: SearchQuery, hits: { total: number; urns: string[]; facets: Facet[] }, stored?: (string | null)[]) {
    const { text, count } = query
    // A match-all (`*`, with or without filters) matched no field: its page's documents are not read.
    const docs = text.kind === 'all' ? [] : stored ?? await this.documents(req.entity, hits.urns)
    const fields = this.registry.searchFields(req.entity)
    const matches = hits.urns.map((_, i) => ({ matchedFields: matchedFields(text, fields, docs[i] ? JSON.parse(docs[i]!) as Record<string, string[]> : {}) }))
    return {
      numEntities: hits.total,
      pageSize: count,
      from: req.start,
      entities: hits.urns,
      metadata: {
        urns: hits.urns,
        matches,
        searchResultMetadatas: hits.facets.filter((f) => Object.keys(f.aggregations).length > 0),
      },
    }
  }

  /** The stored documents (`d`, field -> values) of `urns` (a script call per shard); none where the read fails. */
  private async documents(entity: EntitySpec, urns: readonly string[]): Promise<(string | null)[]> {
    return readDocuments(this.redis, this.keys, entity.name, urns).catch(() => urns.map(() => null))
  }

  /**
   * The next page of a scroll over every match of `input` across `entities`, in urn order (model/search/scroll.ts):
   * the page's urns and the scroll id of the next page (none once the scroll is over).
   */
  async scroll(req: ScrollSearchRequest): Promise<{ urns: string[]; scrollId?: string }> {
    const scroll = { types: req.entities.map((e) => e.name), query: req.input, order: req.order }
    const after = req.scrollId ? decodeScrollId(req.scrollId, scroll) : undefined
    const targets = req.entities.map((entity) => ({ entity, text: parseInput(this.registry, entity, req.input), filter: parseFilter(this.registry, entity, req.filter) }))
    const page = await scrollPage(this.engine, this.keys, { targets, count: Math.min(req.count, MAX_PAGE), order: req.order, after })
    const last = page.urns[page.urns.length - 1]
    return { urns: page.urns, ...(page.more && last !== undefined ? { scrollId: encodeScrollId({ ...scroll, after: last }) } : {}) }
  }

  /** Route 7's `value`. */
  async autocomplete(req: AutocompleteRequest) {
    const filter = parseFilter(this.registry, req.entity, req.filter)
    if (req.query.trim() === '') return { suggestions: [], query: req.query }
    const query = { entity: req.entity, query: req.query, filter, limit: Math.min(req.limit, MAX_PAGE) }
    return { suggestions: await this.engine.autocomplete(query), query: req.query }
  }

  /** Route 5's `value`. */
  async browse(req: BrowseRequest) {
    const result = await browse(this.redis, this.keys, req.entity, req.path, req.start, Math.min(req.limit, MAX_PAGE))
    return {
      numEntities: result.total,
      pageSize: result.entities.length,
      from: req.start,
      metadata: {
        totalNumEntities: result.total + result.groups.reduce((sum, g) => sum + g.count, 0),
        groups: result.groups,
        path: req.path,
      },
      entities: result.entities,
    }
  }
}
