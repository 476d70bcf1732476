/**
 * One interface, two engines: `native` (core Redis structures, any Redis) and `redisearch` (the search module).
 * An engine keeps its index in step with documents through ops run inside the apply script, and answers search
 * and autocomplete. Browse and relationships use core structures whatever the engine (model/store/).
 */
import type { SearchDocument } from '../derive/searchDocument.ts'
import type { EntitySpec } from '../entities.ts'
import type { Op } from '../store/ops.ts'
import type { AutocompleteQuery, SearchHits, SearchQuery } from './types.ts'

export interface SearchEngine {
  readonly name: 'native' | 'redisearch'
  /** Ops for the stored document and the index when an entity's document goes from `before` to `after`. */
  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[]
  /** Ops removing `urn` from the engine's top-level structures even when its document is unknown (restore). */
  purgeOps(entity: EntitySpec, urn: string): Op[]
  /** Creates whatever index structures must exist before writes (idempotent). */
  ensureIndexes(): Promise<void>
  search(query: SearchQuery): Promise<SearchHits>
  /** Suggestions, best first, at most `limit`. */
  autocomplete(query: AutocompleteQuery): Promise<string[]>
  /** Key patterns of everything the engine indexes, for a full rebuild (restore indices). */
  indexKeyPatterns(): string[]
  close?(): Promise<void>
}
