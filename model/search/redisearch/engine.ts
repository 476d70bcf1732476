/**
 * The redisearch engine: documents are hashes (fields.ts) that RediSearch indexes as the apply script writes
 * them, so an acknowledged write is searchable at once. Each shard has its own index over its own documents
 * (the index name carries the shard's hash tag), so on a cluster each index lives with its shard's documents.
 * Index definitions come from the registry through redis-om schemas (redis-om drops and recreates an index whose
 * schema changed); queries use @redis/search's commands.
 */
import { AggregateSteps, AggregateGroupByReducers } from '@redis/search'
import type { AggregateOptions } from '@redis/search/dist/commands/AGGREGATE.js'
import { Client as OmClient, Schema, type SchemaDefinition } from 'redis-om'
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import type { RedisTarget } from '../../store/redis.ts'
import type { Hit, SearchEngine, ShardHits, Suggestion } from '../engine.ts'
import { MAX_FACET_VALUES_PER_SHARD } from '../limits.ts'
import { compareHits } from '../merge.ts'
import { matchSuggestion, normalizeSuggestion } from '../suggest.ts'
import type { AutocompleteQuery, Criterion, Facet, SearchQuery } from '../types.ts'
import { urnId } from '../../urn.ts'
import { FT, FtConnection } from './connection.ts'
import { AUTOCOMPLETE_FIELD, documentHash, facetField, indexedFields, numericField, TAG_SEPARATOR, textField } from './fields.ts'
import { escapeTag, filterClause, needsCandidates, searchQuery, tagMatches } from './query.ts'

const AUTOCOMPLETE_SCAN = 200

export class RediSearchEngine implements SearchEngine {
  readonly name = 'redisearch' as const
  private readonly registry: Registry
  private readonly keys: Keys
  private readonly conn: FtConnection

  constructor(target: RedisTarget, registry: Registry, keys: Keys) {
    this.registry = registry
    this.keys = keys
    this.conn = new FtConnection(target)
  }

  /** The redis-om schema of an entity type's documents in a shard (key prefix = schema name + ':'). */
  schemaOf(shard: number, entity: EntitySpec): Schema {
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
    const index = this.keys.searchIndex(shard, entity.name)
    return new Schema(this.keys.docPrefix(shard, entity.name).slice(0, -1), definition, {
      dataStructure: 'HASH',
      indexName: index,
      indexHashName: `${index}:hash`,
      useStopWords: 'OFF',
    })
  }

  /** Creates every shard's index of every type (after slots moved, the node that now owns a shard gets its index). */
  async ensureIndexes(): Promise<void> {
    const om = new OmClient().useNoClose(this.conn.omAdapter() as never)
    for (const shard of this.keys.allShards()) {
      for (const entity of this.registry.entities) {
        const schema = this.schemaOf(shard, entity)
        const exists = await this.conn.raw(schema.indexName, ['FT.INFO', schema.indexName]).then(() => true, () => false)
        if (!exists) await this.conn.raw(schema.indexHashName, ['DEL', schema.indexHashName], false)
        // Another process starting at the same time may create it first: that is success too.
        await om.fetchRepository(schema).createIndex().catch((err: Error) => { if (!/already exists/i.test(err.message)) throw err })
      }
    }
  }

  purgeOps(entity: EntitySpec, urn: string): Op[] {
    return [['DEL', this.keys.doc(entity.name, urn)]]
  }

  indexKeyPatterns(): string[] {
    return [`${this.keys.prefix}{*}:doc:*`]
  }

  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[] {
    const key = this.keys.doc(entity.name, urn)
    if (!after) return before ? [['DEL', key]] : []
    return [['DEL', key], ['HSET', key, ...Object.entries(documentHash(this.registry, entity, after)).flat()]]
  }

  /** Distinct values (lower-cased) in one index of the tag fields the filter's string conditions need. */
  private async candidates(index: string, filter: Criterion[][]): Promise<(c: Criterion) => string[] | undefined> {
    const needed = [...new Set(filter.flat().filter(needsCandidates).map((c) => c.field))]
    const values = new Map(await Promise.all(needed.map(async (f) => [f, await this.conn.ft(FT.TAGVALS, index, f) as string[]] as const)))
    return (c) => needsCandidates(c)
      ? (values.get(c.field) ?? []).filter((tag) => c.values.some((v) => tagMatches(c.condition, tag, v.toLowerCase())))
      : undefined
  }

  private async query(index: string, q: SearchQuery | AutocompleteQuery, text: SearchQuery['text']): Promise<string | null> {
    const filter = filterClause(q.filter, await this.candidates(index, q.filter))
    return filter === null ? null : searchQuery(text, filter)
  }

  /**
   * The first `need` hits of a ranked (word) query in (score descending, urn ascending) order. RediSearch returns
   * hits by descending score but orders ties arbitrarily, so the window grows until it holds every hit that ties
   * with the last one wanted: only then is the tie broken by urn, the same way on every page.
   */
  private async ranked(index: string, prefix: string, query: string, need: number): Promise<{ total: number; hits: Hit[] }> {
    for (let limit = Math.max(need, 10); ; limit *= 2) {
      const reply = (await this.conn.raw(index, ['FT.SEARCH', index, query, 'WITHSCORES', 'NOCONTENT', 'SCORER', 'DISMAX',
        'LIMIT', '0', String(limit), 'DIALECT', '2'])) as (string | number)[]
      const total = Number(reply[0])
      const hits: Hit[] = []
      for (let i = 1; i < reply.length; i += 2) hits.push({ urn: String(reply[i]).slice(prefix.length), score: Number(reply[i + 1]) })
      const complete = hits.length >= total || hits.length < limit || need === 0
        || hits[hits.length - 1]!.score < hits[Math.min(need, hits.length) - 1]!.score
      if (complete) return { total, hits: hits.sort(compareHits).slice(0, need) }
    }
  }

  async searchShard(shard: number, q: SearchQuery, from: number, size: number): Promise<ShardHits> {
    const index = this.keys.searchIndex(shard, q.entity.name)
    const query = await this.query(index, q, q.text)
    if (query === null) return { total: 0, hits: [], facets: [] }
    const prefix = this.keys.docPrefix(shard, q.entity.name)
    let total: number
    let hits: Hit[]
    if (q.text.kind === 'words') {
      const ranked = await this.ranked(index, prefix, query, from + size)
      total = ranked.total
      hits = ranked.hits.slice(from, from + size)
    } else {
      const reply = await this.conn.ft(FT.SEARCH, index, query, {
        SORTBY: { BY: 'urn', DIRECTION: 'ASC' }, LIMIT: { from, size }, RETURN: [], DIALECT: 2,
      }) as { total: number; documents: { id: string }[] }
      total = reply.total
      hits = reply.documents.map((d) => ({ urn: d.id.slice(prefix.length), score: 0 }))
    }
    return { total, hits, facets: total === 0 ? [] : await this.facets(q.entity, index, query) }
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
      const reply = await this.conn.ft(FT.AGGREGATE, index, query, options) as { results: Record<string, unknown>[] }
      const aggregations: Record<string, number> = {}
      for (const row of reply.results) {
        const joined = row[facetField(field.name)] as string | null | undefined
        if (!joined) continue
        for (const value of new Set(joined.split(TAG_SEPARATOR))) {
          const key = field.facetKey === 'id' ? urnId(value) : value
          aggregations[key] = (aggregations[key] ?? 0) + Number(row.c)
        }
      }
      const top = Object.entries(aggregations).sort((a, b) => b[1] - a[1]).slice(0, MAX_FACET_VALUES_PER_SHARD)
      return { name: field.name, aggregations: Object.fromEntries(top) }
    }))
  }

  async autocompleteShard(shard: number, q: AutocompleteQuery): Promise<Suggestion[]> {
    const normalized = normalizeSuggestion(q.query)
    const acFields = [...this.registry.searchFields(q.entity).values()].filter((f) => f.autocomplete).map((f) => f.name)
    if (normalized === '' || acFields.length === 0) return []
    const index = this.keys.searchIndex(shard, q.entity.name)
    const filter = filterClause(q.filter, await this.candidates(index, q.filter))
    if (filter === null) return []
    const prefix = `@${AUTOCOMPLETE_FIELD}:{${escapeTag(normalized)}*}`
    const reply = await this.conn.ft(FT.SEARCH, index, filter ? `${prefix} (${filter})` : prefix, {
      RETURN: ['d'], LIMIT: { from: 0, size: AUTOCOMPLETE_SCAN }, DIALECT: 2,
    }) as { documents: { value: Record<string, unknown> }[] }
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
    return [...found].map(([text, whole]) => ({ text, whole }))
  }

  async close(): Promise<void> {
    await this.conn.close()
  }
}
