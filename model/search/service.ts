/**
 * Search, autocomplete and browse as the API answers them: parses inputs and filters, asks the engine, reads the
 * hits' documents for matched fields, and shapes the responses of SPEC.md routes 5-7.
 */
import type { Redis } from 'ioredis'
import type { EntitySpec } from '../entities.ts'
import type { Registry } from '../registry.ts'
import type { Keys } from '../store/keys.ts'
import { browse } from './browse.ts'
import type { SearchEngine } from './engine.ts'
import { matchedFields } from './matches.ts'
import { parseFilter, parseInput } from './query.ts'

export const MAX_PAGE = 10_000

export interface SearchRequest { entity: EntitySpec; input: string; start: number; count: number; filter?: unknown }
export interface AutocompleteRequest { entity: EntitySpec; query: string; limit: number; filter?: unknown }
export interface BrowseRequest { entity: EntitySpec; path: string; start: number; limit: number }

export class SearchService {
  private readonly redis: Redis
  private readonly registry: Registry
  private readonly keys: Keys
  private readonly engine: SearchEngine

  constructor(redis: Redis, registry: Registry, keys: Keys, engine: SearchEngine) {
    this.redis = redis
    this.registry = registry
    this.keys = keys
    this.engine = engine
  }

  /** Route 6's `value`. */
  async search(req: SearchRequest) {
    const text = parseInput(this.registry, req.entity, req.input)
    const filter = parseFilter(this.registry, req.entity, req.filter)
    const count = Math.min(req.count, MAX_PAGE)
    const hits = await this.engine.search({ entity: req.entity, text, filter, start: req.start, count })
    const docs = await this.documents(req.entity, hits.urns)
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

  /** The stored documents (`d`, field -> values) of `urns`, in one round trip. */
  private async documents(entity: EntitySpec, urns: readonly string[]): Promise<(string | null)[]> {
    if (urns.length === 0) return []
    const pipeline = this.redis.pipeline()
    for (const urn of urns) pipeline.hget(this.keys.doc(entity.name, urn), 'd')
    return ((await pipeline.exec()) ?? []).map(([err, value]) => (err ? null : (value as string | null)))
  }

  /** Route 7's `value`. */
  async autocomplete(req: AutocompleteRequest) {
    const filter = parseFilter(this.registry, req.entity, req.filter)
    const suggestions = req.query.trim() === '' ? [] : await this.engine.autocomplete({ entity: req.entity, query: req.query, filter, limit: Math.min(req.limit, MAX_PAGE) })
    return { suggestions, query: req.query }
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
