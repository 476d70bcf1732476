/**
 * The redisearch engine: documents are hashes (fields.ts) that RediSearch indexes as the apply script writes
 * them, so an acknowledged write is searchable at once. Each shard has its own index over its own documents
 * (the index name carries the shard's hash tag), so on a cluster each index lives with its shard's documents, and
 * so do the index's companions (companions.ts: ordered urns, facet members, facet co-occurrence, a generation), which the same apply
 * script keeps in step. One shard's search is shard.ts (ranking with ties, one-pass facets, match-all from the
 * companions, answers remembered per generation); one facet value asked alone is answered from the companions
 * alone (soleFacet.ts). Index definitions come from the registry through redis-om
 * schemas (redis-om drops and recreates an index whose schema changed); queries use @redis/search's commands.
 */
import { Client as OmClient, Schema, type SchemaDefinition } from 'redis-om'
import { canonicalJson } from '../../canonicalJson.ts'
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import { createLogger, type Level, type Logger } from '../../log.ts'
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import type { RedisTarget } from '../../store/redis.ts'
import type { SearchEngine, ShardHits, ShardOptions, Suggestion } from '../engine.ts'
import { mergeSuggestions, topValues } from '../merge.ts'
import { autocompleteScan, matchSuggestion, normalizeSuggestion, rankSuggestions, topSuggestions } from '../suggest.ts'
import type { AutocompleteQuery, Criterion, SearchQuery } from '../types.ts'
import { urnId } from '../../urn.ts'
import { backfillCompanions, backfillDocumentParts, companionOps, companionPatterns, cooccurrenceBuilt, facetFieldNames, lexiconOps, liveKey, stringValuesKey, type Commands } from './companions.ts'
import { FT, FtConnection } from './connection.ts'
import { AUTOCOMPLETE_FIELD, documentHash, documentTags, FACETS_FIELD, indexedFields, numericField, TAG_SEPARATOR, textField } from './fields.ts'
import { escapeTag, filterClause, needsCandidates, searchQuery, urnStarts } from './query.ts'
import { DEEP_PAGE, pageAcross } from '../../store/gather.ts'
import { sortedSetOf } from '../../store/orderedSets.ts'
import { GenerationMemo } from './memo.ts'
import { lexBounds } from '../../store/lexRange.ts'
import { IndexPlacement } from './placement.ts'
import { searchShard } from './shard.ts'
import { soleFacetAnswer, soleFacetOf } from './soleFacet.ts'
import { lexBoundsOf, rangeValues } from './ranges.ts'
import { addTo, bucketsOf, emptyBuckets } from '../buckets.ts'

const AUTOCOMPLETE_SCAN = 200
/** How much more a name that starts with an autocomplete query weighs than one a later word of which does (namesStartingWith). */
const STARTING_WEIGHT = 100
/** The module's MAXPREFIXEXPANSIONS: more values than any tag field or term prefix expands to. */
const MAX_EXPANSIONS = 100_000_000

/**
 * The module settings the engine sets on every node that holds its indexes (they are per node), pure:
 * - MAXPREFIXEXPANSIONS: wildcards (`abc*` words, START_WITH, CONTAIN, END_WITH) match every value they expand to,
 *   not the module's default first 200, which it cuts silently;
 * - FORK_GC_RUN_INTERVAL, unless `gcInterval` is 0: how often its garbage collector forks Redis (REDISEARCH_GC_INTERVAL,
 *   model/config.ts says why not every 30 s).
 */
export function nodeSettings(gcInterval: number): string[][] {
  const settings = [['FT.CONFIG', 'SET', 'MAXPREFIXEXPANSIONS', String(MAX_EXPANSIONS)]]
  if (gcInterval > 0) settings.push(['FT.CONFIG', 'SET', 'FORK_GC_RUN_INTERVAL', String(gcInterval)])
  return settings
}

/** Suggestions of a prefix (and filter) on one index, per generation. */
const suggestionMemo = new GenerationMemo<Suggestion[]>((v) => 1 + v.length)

export class RediSearchEngine implements SearchEngine {
  readonly name = 'redisearch' as const
  private readonly registry: Registry
  private readonly keys: Keys
  private readonly conn: FtConnection
  private readonly log: Logger
  /** Index name -> its TAG fields with a suffix trie (as schemaOf defined them). */
  private readonly suffixTries = new Map<string, Set<string>>()
  /** Indexes whose facet co-occurrence counts are built (companions.ts cooccurrenceBuilt). */
  private readonly pairsBuilt = new Set<string>()

  /** Distinct values a string range may match in any one shard's index (MAX_FILTER_VALUES). */
  private readonly maxValues: number
  /** FT.CONFIG commands for each node of the indexes (nodeSettings). */
  private readonly nodeSettings: string[][]

  constructor(target: RedisTarget & { logLevel?: Level | 'silent'; maxFilterValues?: number; redisearchGcInterval?: number }, registry: Registry, keys: Keys) {
    this.log = createLogger(target.logLevel ?? 'info', 'search')
    this.registry = registry
    this.keys = keys
    this.maxValues = target.maxFilterValues ?? 5000
    this.conn = new FtConnection(target)
    this.nodeSettings = nodeSettings(target.redisearchGcInterval ?? 0)
    // On a cluster each shard's index follows its slot when slots move (placement.ts).
    if (target.redisCluster.length > 0) {
      this.conn.placement = new IndexPlacement(target.redisCluster,
        () => this.keys.allShards().flatMap((shard) => this.registry.entities.map((entity) => this.schemaOf(shard, entity))),
        (index) => this.suffixTries.get(index) ?? new Set(),
        this.nodeSettings,
        (round) => round.reindexed
          ? this.log.info('search index completed after a slot move', { reindexed: round.reindexed })
          : this.log.info('search indexes placed', { created: round.created.map((c) => `${c.index}@${c.node}${c.importing ? ' (importing)' : ''}`), dropped: round.dropped.map((d) => `${d.index}@${d.node}`) }))
    }
  }

  /** The redis-om schema of an entity type's documents in a shard (key prefix = schema name + ':'). */
  schemaOf(shard: number, entity: EntitySpec): Schema {
    const definition: SchemaDefinition = {
      urn: { type: 'string', field: 'urn', sortable: true, normalized: false, separator: TAG_SEPARATOR },
      [AUTOCOMPLETE_FIELD]: { type: 'string', field: AUTOCOMPLETE_FIELD, separator: TAG_SEPARATOR },
    }
    for (const field of indexedFields(this.registry, entity)) {
      // Names and titles (the autocomplete fields) get a suffix trie, so CONTAIN and END_WITH filters (`{*v*}`,
      // `{*v}`) find their values at once instead of the module matching every value of the field (~200 ms at
      // 100,000 names). `suffixTrie` is ours: redis-om passes it over, the connection adds WITHSUFFIXTRIE
      // (connection.ts); being in the definition, it changes the schema's hash, so an older index is recreated.
      if (field.name !== 'urn') definition[field.name] = { type: 'string', field: field.name, separator: TAG_SEPARATOR, ...(field.autocomplete ? { suffixTrie: true } : {}) } as SchemaDefinition[string]
      if (field.queryByDefault) definition[textField(field.name)] = { type: 'text', field: textField(field.name), stemming: false, weight: field.boost }
      if (field.type === 'COUNT') definition[numericField(field.name)] = { type: 'number', field: numericField(field.name) }
    }
    // Every facet value in one line, sortable (its value lives in the index, where a query's matches are read) and
    // not indexed (nothing searches it): facets.ts streams it for a result's matches.
    if (facetFieldNames(this.registry, entity).length > 0) definition[FACETS_FIELD] = { type: 'string', field: FACETS_FIELD, sortable: true, normalized: false, indexed: false }
    const index = this.keys.searchIndex(shard, entity.name)
    this.suffixTries.set(index, new Set(Object.entries(definition).filter(([, d]) => (d as { suffixTrie?: boolean }).suffixTrie).map(([name]) => name)))
    return new Schema(this.keys.docPrefix(shard, entity.name).slice(0, -1), definition, {
      dataStructure: 'HASH',
      indexName: index,
      indexHashName: `${index}:hash`,
      useStopWords: 'OFF',
    })
  }

  /** Creates every shard's index of every type (after slots moved, the node that now owns a shard gets its index). */
  async ensureIndexes(): Promise<void> {
    const om = new OmClient().useNoClose(this.conn.omAdapter((index) => this.suffixTries.get(index) ?? new Set()) as never)
    for (const shard of this.keys.allShards()) {
      // The module's settings (nodeSettings), on the node of each shard's indexes. A server that refuses FT.CONFIG
      // (some managed offerings) keeps its own: the service still starts.
      for (const setting of this.nodeSettings) {
        await this.conn.raw(this.keys.searchIndex(shard, 'x'), setting, false)
          .catch((err: Error) => this.log.warn(`${setting.slice(0, 3).join(' ')} refused: the module keeps its own setting`, { error: err.message }))
      }
      for (const entity of this.registry.entities) {
        const schema = this.schemaOf(shard, entity)
        const exists = await this.conn.raw(schema.indexName, ['FT.INFO', schema.indexName]).then(() => true, () => false)
        if (!exists) await this.conn.raw(schema.indexHashName, ['DEL', schema.indexHashName], false)
        // Another process starting at the same time may create it first: that is success too.
        await om.fetchRepository(schema).createIndex().catch((err: Error) => { if (!/already exists/i.test(err.message)) throw err })
        // Companions for documents written before they existed (once per index, on the node holding the shard).
        await backfillCompanions(this.commands(schema.indexName), schema.indexName, this.keys.docPrefix(shard, entity.name), facetFieldNames(this.registry, entity))
        // What documents written by an earlier version lack: string lexicons, facet lines (one pass for both).
        await backfillDocumentParts(this.commands(schema.indexName), schema.indexName, this.keys.docPrefix(shard, entity.name), [...this.registry.searchFields(entity).keys()], facetFieldNames(this.registry, entity))
      }
    }
    this.conn.placement?.start()
  }

  /** Commands sent to the node of `index` (routed by its name: its documents and companions share its slot). */
  private commands(index: string): Commands {
    return { sendCommand: (args) => this.conn.raw(index, args) }
  }

  /** The index of an entity's documents: its type's, in its shard. */
  private indexOf(entity: EntitySpec, urn: string): string {
    return this.keys.searchIndex(this.keys.shardOf(urn), entity.name)
  }

  purgeOps(entity: EntitySpec, urn: string): Op[] {
    return [['DEL', this.keys.doc(entity.name, urn)], ['ZREM', liveKey(this.indexOf(entity, urn)), urn]]
  }

  indexKeyPatterns(): string[] {
    return [`${this.keys.prefix}{*}:doc:*`, ...companionPatterns(`${this.keys.prefix}{*}:idx:`)]
  }

  documentOps(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null): Op[] {
    // An unchanged document is not re-indexed; the companions move with the document.
    if (before && after && canonicalJson(before.fields) === canonicalJson(after.fields)) return []
    return this.written(entity, urn, before, after, true)
  }

  /**
   * The document written again, its companions listed again, and no count moved: the counts of the document are in
   * the co-occurrence and lexicon counts already (documentOps from null would add them a second time).
   */
  restateDocumentOps(entity: EntitySpec, urn: string, doc: SearchDocument): Op[] {
    return this.written(entity, urn, null, doc, false)
  }

  /** The stored document going from `before` to `after`, with its companions; `counts`: whether counts move. */
  private written(entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null, counts: boolean): Op[] {
    const key = this.keys.doc(entity.name, urn)
    const index = this.indexOf(entity, urn)
    const companions = [
      ...companionOps(index, facetFieldNames(this.registry, entity), urn, before, after, { counts }),
      ...lexiconOps(index, documentTags(this.registry, entity, before), documentTags(this.registry, entity, after), { counts }),
    ]
    if (!after) return before ? [['DEL', key], ...companions] : []
    return [['DEL', key], ['HSET', key, ...Object.entries(documentHash(this.registry, entity, after)).flat()], ...companions]
  }

  /**
   * A query's filter as one index's clause (query.ts filterClause): the string conditions the module cannot match
   * itself resolved to their values there (ranges.ts), a URN field's compared as whole urns.
   */
  private async filterOf(index: string, entity: EntitySpec, given: Criterion[][]): Promise<string | null | undefined> {
    const urnFields = new Set([...this.registry.searchFields(entity).values()].filter((f) => f.type === 'URN').map((f) => f.name))
    const filter = urnStarts(given, urnFields)
    const resolved = new Map<Criterion, string[]>()
    for (const c of filter.flat().filter(needsCandidates)) {
      resolved.set(c, await rangeValues(this.commands(index), index, c, this.maxValues, urnFields.has(c.field)))
    }
    return filterClause(filter, (c) => resolved.get(c))
  }

  private async query(index: string, q: SearchQuery | AutocompleteQuery, text: SearchQuery['text']): Promise<string | null> {
    const filter = await this.filterOf(index, q.entity, q.filter)
    return filter === null ? null : searchQuery(text, filter)
  }

  async searchShard(shard: number, q: SearchQuery, from: number, size: number, { facetValues = Infinity }: ShardOptions = {}): Promise<ShardHits> {
    const index = this.keys.searchIndex(shard, q.entity.name)
    const facets = facetFieldNames(this.registry, q.entity)
    const fields = this.registry.searchFields(q.entity)
    const keyPrefix = this.keys.docPrefix(shard, q.entity.name)
    const sole = soleFacetOf(q, facets)
    let answer = sole && await this.pairsReady(index)
      ? await soleFacetAnswer(this.commands(index), {
        index, facets, sole, byId: fields.get(sole.field)?.type === 'URN', skip: from, window: from + size,
      })
      : null
    if (!answer) {
      const query = await this.query(index, q, q.text)
      if (query === null) return { total: 0, hits: [], facets: [] }
      answer = await searchShard(this.commands(index), {
        index, keyPrefix, query, matchAll: query === '*', scored: q.text.kind === 'words', facets, window: from + size, skip: from,
      })
    }
    return {
      total: answer.total,
      hits: answer.hits,
      facets: answer.total === 0 ? [] : facets.map((name) => {
        const aggregations = emptyBuckets()
        for (const [value, n] of answer.facets.get(name) ?? []) addTo(aggregations, fields.get(name)?.facetKey === 'id' ? urnId(value) : value, n)
        return { name, aggregations: bucketsOf(topValues(Object.entries(aggregations), facetValues)) }
      }),
    }
  }

  /** Whether the co-occurrence counts of `index` are complete (once they are, they stay so: remembered). */
  private async pairsReady(index: string): Promise<boolean> {
    if (this.pairsBuilt.has(index)) return true
    if (!await cooccurrenceBuilt(this.commands(index), index)) return false
    this.pairsBuilt.add(index)
    return true
  }

  async matchAllPage(q: SearchQuery, start: number, count: number): Promise<string[] | null> {
    if (start < DEEP_PAGE || q.filter.length > 0 || searchQuery(q.text, undefined) !== '*') return null
    // The shards' urns in order (each index's companion live set: companions.ts).
    const sets = this.keys.allShards().map((shard) => this.keys.searchIndex(shard, q.entity.name))
      .map((index) => sortedSetOf((args) => this.commands(index).sendCommand(args), liveKey(index)))
    return (await pageAcross(sets, start, count)).members
  }

  async urnsAfter(shard: number, entity: EntitySpec, after: string | undefined, limit: number, descending: boolean): Promise<string[]> {
    const index = this.keys.searchIndex(shard, entity.name)
    const [from, to] = lexBounds(after, descending)
    return (await this.commands(index).sendCommand([descending ? 'ZREVRANGEBYLEX' : 'ZRANGEBYLEX', liveKey(index), from, to, 'LIMIT', '0', String(limit)])) as string[]
  }

  /** Each shard's candidates (its distinct values), ranked together: each shard's top `limit` holds its part of the top. */
  async autocomplete(q: AutocompleteQuery): Promise<string[]> {
    const found = await Promise.all(this.keys.allShards().map((shard) => this.autocompleteShard(shard, q)))
    return rankSuggestions(mergeSuggestions(found.map((list) => topSuggestions([...list], q.limit))), q.limit)
  }

  /** One shard's autocomplete candidates (distinct values), in rank order. */
  private async autocompleteShard(shard: number, q: AutocompleteQuery): Promise<Suggestion[]> {
    const normalized = normalizeSuggestion(q.query)
    const acSpecs = [...this.registry.searchFields(q.entity).values()].filter((f) => f.autocomplete)
    const acFields = acSpecs.map((f) => f.name)
    if (normalized === '' || acFields.length === 0) return []
    const index = this.keys.searchIndex(shard, q.entity.name)
    const filter = await this.filterOf(index, q.entity, q.filter)
    if (filter === null) return []
    // A prefix of 2-3 letters or digits expands to every indexed word start beginning with it (14,000 at 100,000
    // datasets: ~0.5 s, now that expansions are not cut at 200, see MAX_EXPANSIONS): it is asked of the words of
    // the names instead (a few hundred terms). The candidates are checked by matchSuggestion either way.
    const short = /^[\p{L}\p{N}]{2,3}$/u.test(normalized) && acSpecs.every((f) => f.queryByDefault)
    // The words' prefix finds names by the module's own split of words, which is not always the suggestions' word
    // starts (`KPIinventory` is `kp` + `iinventory`), and the module answers its first AUTOCOMPLETE_SCAN documents
    // only (the name `events` was not among those of 450 names with a word starting with `events`): the names that
    // start with the query are asked beside it, whatever its length, as the native engine reads them first.
    const one = [...normalized].length === 1
    const starting = await this.namesStartingWith(index, acFields, normalized, autocompleteScan(q.limit, q.filter.length > 0))
    const either = (clause: string) => `(${clause}${starting ? ` | ${starting}` : ''})`
    // One clause, so that the filter after it constrains both parts of the union.
    const prefix = short ? either(`(@${acFields.map(textField).join('|')}:(${normalized}*))`)
      : one ? starting : either(`(@${AUTOCOMPLETE_FIELD}:{${escapeTag(normalized)}*})`)
    if (prefix === null) return []
    const query = filter ? `${prefix} (${filter})` : prefix
    // Remembered while the index is unchanged (memo.ts): reading and parsing up to 200 documents is most of the cost.
    return suggestionMemo.get(this.commands(index), index, query, async () => {
      const reply = await this.conn.ft(FT.SEARCH, index, query, {
        RETURN: ['d'], LIMIT: { from: 0, size: AUTOCOMPLETE_SCAN }, VERBATIM: true, TIMEOUT: 0, DIALECT: 2, // as queryArgs and QUERY_OPTIONS
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
      // Kept in rank order, so each later ask's ranking (suggest.ts) finds it sorted.
      return topSuggestions([...found].map(([text, whole]) => ({ text, whole })), Infinity)
    })
  }

  /**
   * The names that start with `text`: the first `count` values of each autocomplete field's lexicon from it on
   * (`sv:`, lower-cased; as many as the native engine reads, suggest.ts autocompleteScan), asked as tags; null when
   * there are none. One character is below the module's shortest prefix (MINPREFIX 2: `{k*}` finds nothing), so
   * this is all it asks then: names in which it starts a later word are not found. Each field's clause weighs
   * STARTING_WEIGHT: the module returns its first AUTOCOMPLETE_SCAN documents by score, and a word's prefix may
   * match more documents than that (254 for `tmp` in 2,800 datasets), whose rare words outscored the name `tmp`
   * itself, a word many names have (a weight binds to one clause, not to a union).
   */
  private async namesStartingWith(index: string, fields: readonly string[], text: string, count: number): Promise<string | null> {
    const client = this.commands(index)
    const [min, max] = lexBoundsOf('START_WITH', text)
    const lists = await Promise.all(fields.map(async (field) => (await client.sendCommand(['ZRANGEBYLEX', stringValuesKey(index, field), min, max, 'LIMIT', '0', String(count)])) as string[]))
    const clauses = fields.flatMap((field, i) => (lists[i]!.length > 0 ? [`(@${field}:{${lists[i]!.map(escapeTag).join(' | ')}}) => { $weight: ${STARTING_WEIGHT} }`] : []))
    return clauses.length === 0 ? null : `(${clauses.join(' | ')})`
  }

  async close(): Promise<void> {
    await this.conn.placement?.stop()
    await this.conn.close()
  }
}
