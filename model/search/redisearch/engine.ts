/**
 * The redisearch engine: documents are hashes (fields.ts) that RediSearch indexes as the apply script writes
 * them, so an acknowledged write is searchable at once. Index definitions come from the registry through
 * redis-om schemas (redis-om drops and recreates an index whose schema changed); queries use @redis/search.
 */
import { createClient, type RedisClientType } from '@redis/client'
import searchModule from '@redis/search'
import { Client as OmClient, Schema, type SchemaDefinition } from 'redis-om'
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import type { SearchEngine } from '../engine.ts'
import { matchSuggestion, normalizeSuggestion, rankSuggestions } from '../suggest.ts'
import type { AutocompleteQuery, Criterion, SearchHits, SearchQuery } from '../types.ts'
import { urnId } from '../../urn.ts'
import { AUTOCOMPLETE_FIELD, documentHash, facetField, indexedFields, numericField, TAG_SEPARATOR, textField } from './fields.ts'
import { canonicalJson } from '../../derive/canonical.ts'
import { backfillCompanions, companionOps, companionPatterns, facetFieldNames, liveKey } from './companions.ts'
import { MAX_FACET_VALUES, searchShard } from './shard.ts'
import { resolvedQuery, tagValues } from './tagValues.ts'
import { escapeTag, filterClause, needsCandidates, searchQuery, tagMatches } from './query.ts'

const AUTOCOMPLETE_SCAN = 200

// @redis/search is CommonJS: its commands are the `default` of the module object Node hands to ESM.
const RediSearch = searchModule.default
type FtClient = RedisClientType<{ ft: typeof RediSearch }>

export class RediSearchEngine implements SearchEngine {
  readonly name = 'redisearch' as const
  private readonly registry: Registry
  private readonly keys: Keys
  private readonly client: FtClient

  constructor(url: string, registry: Registry, keys: Keys) {
    this.registry = registry
    this.keys = keys
    this.client = createClient({ url, modules: { ft: RediSearch } }) as FtClient
    this.client.on('error', () => {})
  }

  /** The redis-om schema of an entity type's documents (key prefix = schema name + ':'). */
  schemaOf(entity: EntitySpec): Schema {
    const definition: SchemaDefinition = {
      urn: { type: 'string', field: 'urn', sortable: true, normalized: false, separator: TAG_SEPARATOR },
      [AUTOCOMPLETE_FIELD]: { type: 'string', field: AUTOCOMPLETE_FIELD, separator: TAG_SEPARATOR },
    }
    for (const field of indexedFields(this.registry, entity)) {
      if (field.name !== 'urn') definition[field.name] = { type: 'string', field: field.name, separator: TAG_SEPARATOR }
      if (field.queryByDefault) definition[textField(field.name)] = { type: 'text', field: textField(field.name), stemming: false, weight: field.boost }
      if (field.type === 'COUNT') definition[numericField(field.name)] = { type: 'number', field: numericField(field.name) }
      // Sortable (its values live in the index) and un-normalized (original case): facets group on it directly.
      if (field.facet) definition[facetField(field.name)] = { type: 'string', field: facetField(field.name), sortable: true, normalized: false, separator: TAG_SEPARATOR }
    }
    return new Schema(this.keys.docPrefix(entity.name).slice(0, -1), definition, {
      dataStructure: 'HASH',
      indexName: this.keys.searchIndex(entity.name),
      indexHashName: `${this.keys.searchIndex(entity.name)}:hash`,
      useStopWords: 'OFF',
    })
  }

  async ensureIndexes(): Promise<void> {
    if (!this.client.isOpen) await this.client.connect()
    const om = await new OmClient().use(this.client as never)
    for (const entity of this.registry.entities) {
      const schema = this.schemaOf(entity)
      const exists = await this.client.ft.info(schema.indexName).then(() => true, () => false)
      if (!exists) await this.client.del(schema.indexHashName)
      await om.fetchRepository(schema).createIndex()
      // issue 15: companions for documents written before they existed (once per index).
      await backfillCompanions(this.client, schema.indexName, this.keys.docPrefix(entity.name), facetFieldNames(this.registry, entity))
    }
  }

  purgeOps(entity: EntitySpec, urn: string): Op[] {
    return [['DEL', this.keys.doc(entity.name, urn)], ['ZREM', liveKey(this.keys.searchIndex(entity.name)), urn]]
  }

  indexKeyPatterns(): string[] {
    return [`${this.keys.prefix}doc:*`, ...companionPatterns(this.keys.searchIndex(''))]
  }

  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[] {
    const key = this.keys.doc(entity.name, urn)
    // issue 15: an unchanged document is not re-indexed; companions (companions.ts) move with the document.
    if (before && after && canonicalJson(before.fields) === canonicalJson(after.fields)) return []
    const companions = companionOps(this.keys.searchIndex(entity.name), facetFieldNames(this.registry, entity), urn, before, after)
    if (!after) return before ? [['DEL', key], ...companions] : []
    return [['DEL', key], ['HSET', key, ...Object.entries(documentHash(this.registry, entity, after)).flat()], ...companions]
  }

  /** Distinct values (lower-cased) of the tag fields the filter's string conditions need. */
  private async candidates(entity: EntitySpec, filter: Criterion[][]): Promise<(c: Criterion) => string[] | undefined> {
    const index = this.keys.searchIndex(entity.name)
    const needed = [...new Set(filter.flat().filter(needsCandidates).map((c) => c.field))]
    const values = new Map(await Promise.all(needed.map(async (f) => [f, await tagValues(this.client, index, f)] as const)))
    return (c) => needsCandidates(c)
      ? (values.get(c.field) ?? []).filter((tag) => c.values.some((v) => tagMatches(c.condition, tag, v.toLowerCase())))
      : undefined
  }

  private async query(q: SearchQuery | AutocompleteQuery, text: SearchQuery['text']): Promise<string | null> {
    const build = async () => {
      const filter = filterClause(q.filter, await this.candidates(q.entity, q.filter))
      return filter === null ? null : searchQuery(text, filter)
    }
    // issue 15: a query whose filter is resolved against tag values is built once per generation (tagValues.ts).
    return q.filter.flat().some(needsCandidates)
      ? resolvedQuery(this.client, this.keys.searchIndex(q.entity.name), JSON.stringify([text, q.filter]), build)
      : build()
  }

  // ---- issue 15: search answered per index by shard.ts (ranking.ts, facets.ts, companions.ts) ----------------
  async search(q: SearchQuery): Promise<SearchHits> {
    const query = await this.query(q, q.text)
    if (query === null) return { total: 0, urns: [], facets: [] }
    const facets = facetFieldNames(this.registry, q.entity)
    const answer = await searchShard(this.client, {
      index: this.keys.searchIndex(q.entity.name), keyPrefix: this.keys.docPrefix(q.entity.name), query,
      matchAll: query === '*', scored: q.text.kind === 'words', facets, window: q.start + q.count, skip: q.start,
    })
    const fields = this.registry.searchFields(q.entity)
    return {
      total: answer.total,
      urns: answer.hits.map((h) => h.urn),
      facets: answer.total === 0 ? [] : facets.map((name) => {
        const aggregations: Record<string, number> = {}
        for (const [value, n] of answer.facets.get(name) ?? []) {
          const key = fields.get(name)?.facetKey === 'id' ? urnId(value) : value
          aggregations[key] = (aggregations[key] ?? 0) + n
        }
        const top = Object.entries(aggregations).sort((a, b) => b[1] - a[1]).slice(0, MAX_FACET_VALUES)
        return { name, aggregations: Object.fromEntries(top) }
      }),
    }
  }
  // ---- end issue 15 ---------------------------------------------------------------------------------------------

  async autocomplete(q: AutocompleteQuery): Promise<string[]> {
    const normalized = normalizeSuggestion(q.query)
    const acFields = [...this.registry.searchFields(q.entity).values()].filter((f) => f.autocomplete).map((f) => f.name)
    if (normalized === '' || acFields.length === 0) return []
    const filter = filterClause(q.filter, await this.candidates(q.entity, q.filter))
    if (filter === null) return []
    const prefix = `@${AUTOCOMPLETE_FIELD}:{${escapeTag(normalized)}*}`
    const reply = await this.client.ft.search(this.keys.searchIndex(q.entity.name), filter ? `${prefix} (${filter})` : prefix, {
      RETURN: ['d'], LIMIT: { from: 0, size: AUTOCOMPLETE_SCAN }, DIALECT: 2,
    })
    const found = new Map<string, boolean>()
    for (const doc of reply.documents) {
      const fields = JSON.parse(String(doc.value.d)) as Record<string, string[]>
      for (const name of acFields) {
        for (const value of fields[name] ?? []) {
          const match = matchSuggestion(value, normalized)
          if (match) found.set(value, (found.get(value) ?? false) || match === 'whole')
        }
      }
    }
    return rankSuggestions([...found].map(([text, whole]) => ({ text, whole })), q.limit)
  }

  async close(): Promise<void> {
    if (this.client.isOpen) await this.client.quit()
  }
}
