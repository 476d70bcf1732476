/**
 * The native search engine: an inverted index on core Redis structures (sets, sorted sets, lexicographic ranges),
 * for servers without the search module. Queries run as one Lua script each (search-0.lua, autocomplete-0.lua).
 */
import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import { LuaScript } from '../../store/script.ts'
import type { SearchEngine } from '../engine.ts'
import type { AutocompleteQuery, Criterion, FilterGroups, SearchHits, SearchQuery } from '../types.ts'
import { nativeDocumentOps } from './documentOps.ts'
import { normalizeSuggestion, rankSuggestions } from '../suggest.ts'
import { urnId } from '../../urn.ts'

const searchScript = new LuaScript(import.meta.url, './search-0.lua')
const autocompleteScript = new LuaScript(import.meta.url, './autocomplete-0.lua')
/** Facet buckets reported per field at most. */
const MAX_FACET_VALUES = 200
/** Suggestion entries scanned per autocomplete (distinct suggestions are fewer). */
const AUTOCOMPLETE_SCAN = 1000

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
  private readonly redis: Redis
  private readonly registry: Registry
  private readonly keys: Keys

  constructor(redis: Redis, registry: Registry, keys: Keys) {
    this.redis = redis
    this.registry = registry
    this.keys = keys
  }

  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[] {
    return nativeDocumentOps(this.registry, this.keys, entity, urn, before, after)
  }

  purgeOps(entity: EntitySpec, urn: string): Op[] {
    return [['ZREM', this.keys.nativeIndex(entity.name, 'live'), urn], ['DEL', this.keys.doc(entity.name, urn)]]
  }

  async ensureIndexes(): Promise<void> {}

  indexKeyPatterns(): string[] {
    return [`${this.keys.prefix}ix:*`, `${this.keys.prefix}doc:*`]
  }

  private prefixOf(entity: EntitySpec): string {
    return this.keys.nativeIndex(entity.name, '').slice(0, -1)
  }

  private tmpPrefix(): string {
    return `${this.keys.prefix}tmp:${randomUUID()}:`
  }

  async search(query: SearchQuery): Promise<SearchHits> {
    const words = query.text.kind === 'words' ? query.text.words : []
    const must: Criterion[] = query.text.kind === 'field'
      ? [{ field: query.text.field, condition: 'EQUAL', values: [query.text.value], negated: false, numeric: false }]
      : []
    const fields = this.registry.searchFields(query.entity)
    const facets = [...fields.values()].filter((f) => f.facet)
    const args = [
      this.prefixOf(query.entity), this.tmpPrefix(), String(query.start), String(query.count),
      String(words.length), ...words.flatMap((w) => [w.token, w.prefix ? '1' : '0']),
      ...encodeCriteria(must), ...encodeFilter(query.filter),
      String(facets.length), ...facets.map((f) => f.name), String(MAX_FACET_VALUES),
    ]
    const [total, urns, rawFacets] = (await searchScript.run(this.redis, [], args)) as [number, string[], (string | (string | number)[])[]]
    const result: SearchHits = { total, urns, facets: [] }
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

  async autocomplete(query: AutocompleteQuery): Promise<string[]> {
    const q = normalizeSuggestion(query.query)
    const args = [this.prefixOf(query.entity), this.tmpPrefix(), q, String(AUTOCOMPLETE_SCAN), ...encodeFilter(query.filter)]
    const raw = (await autocompleteScript.run(this.redis, [], args)) as string[]
    const found: { text: string; whole: boolean }[] = []
    for (let i = 0; i < raw.length; i += 2) found.push({ text: raw[i]!, whole: raw[i + 1] === '1' })
    return rankSuggestions(found, query.limit)
  }
}
