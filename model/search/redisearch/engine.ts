/**
 * The redisearch engine: documents are hashes (fields.ts) that RediSearch indexes as the apply script writes
 * them, so an acknowledged write is searchable at once. Index definitions come from the registry through
 * redis-om schemas (redis-om drops and recreates an index whose schema changed); queries use @redis/search.
 */
import { createClient, type RedisClientType } from '@redis/client'
import searchModule, { AggregateSteps, AggregateGroupByReducers } from '@redis/search'
import type { AggregateOptions } from '@redis/search/dist/commands/AGGREGATE.js'
import { Client as OmClient, Schema, type SchemaDefinition } from 'redis-om'
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import type { SearchEngine } from '../engine.ts'
import { matchSuggestion, normalizeSuggestion, rankSuggestions } from '../suggest.ts'
import type { AutocompleteQuery, Criterion, Facet, SearchHits, SearchQuery } from '../types.ts'
import { urnId } from '../../urn.ts'
import { AUTOCOMPLETE_FIELD, documentHash, facetField, indexedFields, numericField, TAG_SEPARATOR, textField } from './fields.ts'
import { escapeTag, filterClause, needsCandidates, searchQuery, tagMatches } from './query.ts'

const MAX_FACET_VALUES = 200
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
    }
  }

  purgeOps(entity: EntitySpec, urn: string): Op[] {
    return [['DEL', this.keys.doc(entity.name, urn)]]
  }

  indexKeyPatterns(): string[] {
    return [`${this.keys.prefix}doc:*`]
  }

  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[] {
    const key = this.keys.doc(entity.name, urn)
    if (!after) return before ? [['DEL', key]] : []
    return [['DEL', key], ['HSET', key, ...Object.entries(documentHash(this.registry, entity, after)).flat()]]
  }

  /** Distinct values (lower-cased) of the tag fields the filter's string conditions need. */
  private async candidates(entity: EntitySpec, filter: Criterion[][]): Promise<(c: Criterion) => string[] | undefined> {
    const index = this.keys.searchIndex(entity.name)
    const needed = [...new Set(filter.flat().filter(needsCandidates).map((c) => c.field))]
    const values = new Map(await Promise.all(needed.map(async (f) => [f, await this.client.ft.tagVals(index, f)] as const)))
    return (c) => needsCandidates(c)
      ? (values.get(c.field) ?? []).filter((tag) => c.values.some((v) => tagMatches(c.condition, tag, v.toLowerCase())))
      : undefined
  }

  private async query(q: SearchQuery | AutocompleteQuery, text: SearchQuery['text']): Promise<string | null> {
    const filter = filterClause(q.filter, await this.candidates(q.entity, q.filter))
    return filter === null ? null : searchQuery(text, filter)
  }

  async search(q: SearchQuery): Promise<SearchHits> {
    const query = await this.query(q, q.text)
    if (query === null) return { total: 0, urns: [], facets: [] }
    const index = this.keys.searchIndex(q.entity.name)
    const prefix = this.keys.docPrefix(q.entity.name)
    let total: number
    let urns: string[]
    if (q.text.kind === 'words') {
      // Relevance, then urn: fetch the top start+count with scores and break ties by urn.
      const reply = (await this.client.sendCommand(['FT.SEARCH', index, query, 'WITHSCORES', 'NOCONTENT', 'SCORER', 'DISMAX',
        'LIMIT', '0', String(q.start + q.count), 'DIALECT', '2'])) as (string | number)[]
      total = Number(reply[0])
      const hits: { urn: string; score: number }[] = []
      for (let i = 1; i < reply.length; i += 2) hits.push({ urn: String(reply[i]).slice(prefix.length), score: Number(reply[i + 1]) })
      hits.sort((a, b) => b.score - a.score || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0))
      urns = hits.slice(q.start, q.start + q.count).map((h) => h.urn)
    } else {
      const reply = await this.client.ft.search(index, query, {
        SORTBY: { BY: 'urn', DIRECTION: 'ASC' }, LIMIT: { from: q.start, size: q.count }, RETURN: [], DIALECT: 2,
      })
      total = reply.total
      urns = reply.documents.map((d) => d.id.slice(prefix.length))
    }
    return { total, urns, facets: total === 0 ? [] : await this.facets(q.entity, index, query) }
  }

  /**
   * Facet counts: one GROUPBY per facet field over its sortable tag. A document with several values forms a group
   * of their joined string, so each group's count is added to every value in it: exact per-value counts.
   */
  private async facets(entity: EntitySpec, index: string, query: string): Promise<Facet[]> {
    const fields = [...this.registry.searchFields(entity).values()].filter((f) => f.facet)
    return Promise.all(fields.map(async (field) => {
      const options: AggregateOptions = {
        STEPS: [{ type: AggregateSteps.GROUPBY, properties: `@${facetField(field.name)}`, REDUCE: { type: AggregateGroupByReducers.COUNT, AS: 'c' } }],
        DIALECT: 2,
      }
      const reply = await this.client.ft.aggregate(index, query, options)
      const aggregations: Record<string, number> = {}
      for (const row of reply.results) {
        const joined = row[facetField(field.name)] as string | null | undefined
        if (!joined) continue
        for (const value of new Set(joined.split(TAG_SEPARATOR))) {
          const key = field.facetKey === 'id' ? urnId(value) : value
          aggregations[key] = (aggregations[key] ?? 0) + Number(row.c)
        }
      }
      const top = Object.entries(aggregations).sort((a, b) => b[1] - a[1]).slice(0, MAX_FACET_VALUES)
      return { name: field.name, aggregations: Object.fromEntries(top) }
    }))
  }

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
