/**
 * One index's part of a search: its match count, its hits in (score desc, urn asc) order complete up to a window,
 * and its facet counts. A sharded engine asks every shard's index for the same window and merges (hits by
 * compareHits, totals and counts summed); one index alone is the whole answer.
 *
 * Where the time goes, and what this does instead (100,000 documents, RediSearch 2.6):
 *   - match-all sorted by urn visits every document (FT.SEARCH * SORTBY urn: ~100 ms) and its facets group every
 *     document (FT.AGGREGATE GROUPBY: ~150 ms per facet field): answered from the companions instead (ordered
 *     urns, a set per facet value), a few commands whatever the size.
 *   - other queries' facets: one GROUPBY over all facet fields (not one per field).
 *   - stable pages with ties: ranking.ts.
 *   - a query asked again while the index is unchanged is answered from the generation memo (memo.ts).
 */
import { matchAll, type Commands } from './companions.ts'
import { facetCounts, type FacetCounts } from './facets.ts'
import { GenerationMemo } from './memo.ts'
import { rankedHits, type Hit } from './ranking.ts'

/** Facet values reported per field at most. */
export const MAX_FACET_VALUES = 200
/** Windows larger than this are computed each time rather than remembered (they hold that many hits). */
const MEMO_WINDOW = 20_000

export interface ShardQuery {
  index: string
  /** Key prefix of the index's documents (FT.SEARCH returns keys; hits carry urns). */
  keyPrefix: string
  /** RediSearch query (DIALECT 2); `*` with `matchAll` for everything. */
  query: string
  /** No words, no field match, no filter: every document of the index. */
  matchAll: boolean
  /** The query has words: hits are scored (else every hit scores 0 and the urn alone orders them). */
  scored: boolean
  /** The facet fields to count. */
  facets: readonly string[]
  /** How many of the first hits are needed (start + count). */
  window: number
  /** Leading hits of the window the caller does not need (one index alone: `start`; a merge of shards: 0). */
  skip?: number
}

export interface ShardAnswer {
  total: number
  /** Hits `skip` to `window` - 1 of the order. */
  hits: Hit[]
  facets: FacetCounts
}

const memo = new GenerationMemo<ShardAnswer & { window: number }>((v) => 1 + v.hits.length)

export async function searchShard(client: Commands, q: ShardQuery): Promise<ShardAnswer> {
  if (q.matchAll) {
    const live = await matchAll(client, q.index, q.facets, q.skip ?? 0, q.window, MAX_FACET_VALUES)
    return { total: live.total, hits: live.urns.map((urn) => ({ urn, score: 0 })), facets: live.facets }
  }
  const compute = async () => {
    const ranked = await rankedHits(client, q.index, q.keyPrefix, q.query, q.window, q.scored)
    const facets = ranked.total === 0 ? new Map() as FacetCounts : await facetCounts(client, q.index, q.query, q.facets)
    return { ...ranked, facets, window: q.window }
  }
  if (q.window > MEMO_WINDOW) return compute()
  // The query string determines `scored` (words) and the index its facet fields: it is the key.
  const answer = await memo.get(client, q.index, q.query, compute, (v) => v.window >= q.window || v.hits.length >= v.total)
  return { total: answer.total, hits: answer.hits.slice(q.skip ?? 0, q.window), facets: answer.facets }
}
