/**
 * One interface, two engines: `native` (core Redis structures, any Redis) and `redisearch` (the search module).
 * An engine keeps each shard's index in step with documents through ops run inside the apply script, and answers
 * search and autocomplete one shard at a time; model/search/merge.ts gathers the shards into one answer. Browse
 * and relationships use core structures whatever the engine (model/search/browse.ts, model/store/edgeStore.ts).
 */
import type { SearchDocument } from '../derive/searchDocument.ts'
import type { EntitySpec } from '../entities.ts'
import type { Op } from '../store/ops.ts'
import type { AutocompleteQuery, Facet, SearchQuery } from './types.ts'

/** One hit: its urn and relevance (0 when the query ranks nothing: then urn order alone decides). */
export interface Hit {
  urn: string
  score: number
}

/** One shard's answer: its matches counted, the asked window of its hits in global order, its facet counts. */
export interface ShardHits {
  total: number
  /** Hits [from, from+size) of the shard in (score descending, urn ascending) order. */
  hits: Hit[]
  /** The shard's facets as shown (summed across shards by merge.ts), or none where it answers `counts`. */
  facets: Facet[]
  /** The shard's facet counts in its engine's own terms, which the engine sums and shows (SearchEngine.facetsOf). */
  counts?: FacetCounts
  /** Each hit's stored document (field -> values, as JSON; null when it has none), when asked for and answered. */
  documents?: (string | null)[]
}

/**
 * A shard's facet counts before they are shown: each value's count by the engine's id of the value (one id per
 * field and lower-cased value in every shard: spellings differ by shard); `originals`, by field and lower-cased
 * value, the spellings the shard already gave for some of them.
 */
export interface FacetCounts {
  shard: number
  counts: Uint32Array
  originals?: Map<string, Map<string, string>>
}

/**
 * What a shard's search may also answer: `documents`, the hits' stored documents (an engine may ignore it); and how
 * many values of each facet it reports at most (`facetValues`, every one when not given: limits.ts shardFacetValues).
 */
export interface ShardOptions {
  documents?: boolean
  facetValues?: number
}

/** One autocomplete candidate: a value and whether it matches from its start. */
export interface Suggestion {
  text: string
  whole: boolean
}

export interface SearchEngine {
  readonly name: 'native' | 'redisearch'
  /** Ops for the stored document and the index when an entity's document goes from `before` to `after`. */
  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[]
  /**
   * Ops making the index hold `doc` again when the stored document is `doc` already (restore indices restating an
   * unchanged document): whatever of it was lost comes back, and every op is safe to repeat, so that nothing the
   * engine counts per document moves (documentOps from null would count the document a second time).
   */
  restateDocumentOps(entity: EntitySpec, urn: string, doc: SearchDocument): Op[]
  /** Ops removing `urn` from the engine's top-level structures even when its document is unknown (restore). */
  purgeOps(entity: EntitySpec, urn: string): Op[]
  /** Creates whatever index structures must exist before writes, in every shard (idempotent). */
  ensureIndexes(): Promise<void>
  /** Optional: records that a full rebuild (`restore --rebuild`) brought the index to this version's format. */
  markRebuilt?(): Promise<void>
  /** One shard's hits [from, from+size) in (score descending, urn ascending) order, its total and facets. */
  searchShard(shard: number, query: SearchQuery, from: number, size: number, options?: ShardOptions): Promise<ShardHits>
  /**
   * Optional, for an engine whose shards answer `counts`: the facets of the shards' counts summed, the `limit` most
   * frequent values of each field (ties by value), in the spellings shown (counted once, however many shards).
   */
  facetsOf?(entity: EntitySpec, counts: readonly FacetCounts[], limit: number): Promise<Facet[]>
  /**
   * Optional, for an engine that keeps each shard's documents in urn order: urns [start, start+count) of a query
   * that matches every document (no words, no filter) across all shards, without each shard sending its first
   * start+count (a deep page); null when the query is not one.
   */
  matchAllPage?(query: SearchQuery, start: number, count: number): Promise<string[] | null>
  /**
   * Optional, for an engine that answers several shards in this process: the urns [start, start+count) of a query
   * as it would answer it now, before its shards' reads (synchronous), or undefined when it cannot tell. The page's
   * documents may then be read beside the shards' reads, and kept when the page the shards give is the same.
   */
  guessPage?(query: SearchQuery, start: number, count: number): string[] | undefined
  /**
   * Up to `limit` urns of `entity`'s searchable (live) documents in one shard, in urn order (code units, as Redis
   * sorts members) strictly after `after` (from the first when undefined); `descending`: in reverse order, strictly
   * before `after`. A range read of an ordered set: scroll (model/search/scroll.ts) pages with it.
   */
  urnsAfter(shard: number, entity: EntitySpec, after: string | undefined, limit: number, descending: boolean): Promise<string[]>
  /** Autocomplete across every shard: at most `limit` suggestions, ranked (suggest.ts rankSuggestions). */
  autocomplete(query: AutocompleteQuery): Promise<string[]>
  /**
   * Optional: prepares this process to answer queries without first copying anything (the native engine copies its
   * facet lines and name lexicons, then keeps them current); a gateway reports ready once it is done.
   */
  warmUp?(): Promise<void>
  /**
   * Whether this process does a query's work (the native engine's copies) rather than Redis (the module): a gateway
   * then asks itself some queries before it reports ready (model/search/warmQueries.ts), which would cost Redis
   * their whole work with an engine that answers there.
   */
  readonly queriesInProcess?: boolean
  /** Key patterns of everything the engine indexes, for a full rebuild (restore indices). */
  indexKeyPatterns(): string[]
  close?(): Promise<void>
}
