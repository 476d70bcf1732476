/**
 * The native search engine: an inverted index on core Redis structures (sets, sorted sets, lexicographic ranges),
 * for servers without the search module, one index per shard. Queries run as one Lua script per shard
 * (search-1.lua, autocomplete-1.lua).
 */
import { randomUUID } from 'node:crypto'
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import type { RedisClient } from '../../store/redis.ts'
import { LuaScript } from '../../store/script.ts'
import type { SearchEngine, ShardHits, Suggestion } from '../engine.ts'
import { MAX_FACET_VALUES_PER_SHARD } from '../limits.ts'
import { normalizeSuggestion } from '../suggest.ts'
import type { AutocompleteQuery, Criterion, FilterGroups, SearchQuery } from '../types.ts'
import { urnId } from '../../urn.ts'
import { nativeDocumentOps } from './documentOps.ts'
import { lexRange } from '../../store/lexRange.ts'

const searchScript = new LuaScript(import.meta.url, './search-1.lua')
const autocompleteScript = new LuaScript(import.meta.url, './autocomplete-1.lua')
/**
 * Suggestion entries scanned per autocomplete and shard: a few times the suggestions asked for (entries come in
 * the order of their text, so the first ones are the best candidates), within bounds.
 */
const autocompleteScan = (limit: number): number => Math.min(1000, Math.max(50, limit * 5))

function encodeCriteria(list: readonly Criterion[]): string[] {
  const out = [String(list.length)]
  for (const c of list) {
    // Urns keep their case (the live set holds them as written); other strings compare lower-cased.
    const values = c.numeric || c.field === 'urn' ? c.values : c.values.map((v) => v.toLowerCase())
    out.push(c.field, c.condition, c.negated ? '1' : '0', c.numeric ? '1' : '0', String(values.length), ...values)
  }
  return out
}

function encodeFilter(filter: FilterGroups): string[] {
  return [String(filter.length), ...filter.flatMap((group) => encodeCriteria(group))]
}

export class NativeEngine implements SearchEngine {
  readonly name = 'native' as const
  private readonly redis: RedisClient
  private readonly registry: Registry
  private readonly keys: Keys

  constructor(redis: RedisClient, registry: Registry, keys: Keys) {
    this.redis = redis
    this.registry = registry
    this.keys = keys
  }

  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[] {
    return nativeDocumentOps(this.registry, this.keys, entity, urn, before, after)
  }

  purgeOps(entity: EntitySpec, urn: string): Op[] {
    return [['ZREM', this.keys.nativeIndex(this.keys.shardOf(urn), entity.name, 'live'), urn], ['DEL', this.keys.doc(entity.name, urn)]]
  }

  async ensureIndexes(): Promise<void> {}

  indexKeyPatterns(): string[] {
    return [`${this.keys.prefix}{*}:ix:*`, `${this.keys.prefix}{*}:doc:*`]
  }

  /** The index prefix of a type in a shard, and the keys a query script declares (the type's live set). */
  private scriptTarget(shard: number, entity: EntitySpec): { prefix: string; keys: string[]; tmp: string } {
    const prefix = this.keys.nativeIndex(shard, entity.name, '').slice(0, -1)
    return { prefix, keys: [`${prefix}live:`], tmp: `${this.keys.temporary(shard)}${randomUUID()}:` }
  }

  async searchShard(shard: number, query: SearchQuery, from: number, size: number): Promise<ShardHits> {
    const words = query.text.kind === 'words' ? query.text.words : []
    const must: Criterion[] = query.text.kind === 'field'
      ? [{ field: query.text.field, condition: 'EQUAL', values: [query.text.value], negated: false, numeric: false }]
      : []
    const fields = this.registry.searchFields(query.entity)
    const facets = [...fields.values()].filter((f) => f.facet)
    const target = this.scriptTarget(shard, query.entity)
    const args = [
      target.prefix, target.tmp, String(from), String(size),
      String(words.length), ...words.flatMap((w) => [w.token, w.prefix ? '1' : '0']),
      ...encodeCriteria(must), ...encodeFilter(query.filter),
      String(facets.length), ...facets.map((f) => f.name), String(MAX_FACET_VALUES_PER_SHARD),
    ]
    const [total, scored, rawFacets] = (await searchScript.run(this.redis, target.keys, args)) as [number, string[], (string | (string | number)[])[]]
    const result: ShardHits = { total, hits: [], facets: [] }
    // The result set's score is minus the relevance: ascending order there is best first.
    for (let i = 0; i < scored.length; i += 2) result.hits.push({ urn: scored[i]!, score: -Number(scored[i + 1]) || 0 })
    for (let i = 0; i < rawFacets.length; i += 2) {
      const name = rawFacets[i] as string
      const buckets = rawFacets[i + 1] as (string | number)[]
      const field = fields.get(name)
      const aggregations: Record<string, number> = {}
      for (let j = 0; j < buckets.length; j += 2) {
        const original = String(buckets[j])
        const key = field?.facetKey === 'id' ? urnId(original) : original
        aggregations[key] = (aggregations[key] ?? 0) + Number(buckets[j + 1])
      }
      result.facets.push({ name, aggregations })
    }
    return result
  }

  async urnsAfter(shard: number, entity: EntitySpec, after: string | undefined, limit: number, descending: boolean): Promise<string[]> {
    return lexRange(this.redis, this.keys.nativeIndex(shard, entity.name, 'live'), after, limit, descending)
  }

  async autocompleteShard(shard: number, query: AutocompleteQuery): Promise<Suggestion[]> {
    const target = this.scriptTarget(shard, query.entity)
    const args = [target.prefix, target.tmp, normalizeSuggestion(query.query), String(query.filter.length > 0 ? 1000 : autocompleteScan(query.limit)), ...encodeFilter(query.filter)]
    const raw = (await autocompleteScript.run(this.redis, target.keys, args)) as string[]
    const found: Suggestion[] = []
    for (let i = 0; i < raw.length; i += 2) found.push({ text: raw[i]!, whole: raw[i + 1] === '1' })
    return found
  }
}
