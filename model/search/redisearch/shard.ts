/**
 * One index's part of a search: its match count, its hits in (score desc, urn asc) order complete up to a window,
 * and its facet counts. A sharded engine asks every shard's index for the same window and merges (hits by
 * compareHits, totals and counts summed); one index alone is the whole answer.
 *
 * Where the time goes, and what this does instead (100,000 documents, RediSearch 2.6):
 *   - match-all sorted by urn visits every document (FT.SEARCH * SORTBY urn: ~100 ms) and its facets group every
 *     document (FT.AGGREGATE GROUPBY: ~150 ms per facet field): answered from the companions instead (ordered
 *     urns, a set per facet value), a few commands whatever the size.
 *   - other queries' facets: one GROUPBY over all facet fields (not one per field); and when the query matches
 *     most of the index (a word every document has: ~100 ms to group 100,000 matches), the index's totals minus
 *     the counts of the documents it does not match (`-(query)`: a few documents, about 1 ms).
 *   - stable pages with ties: ranking.ts.
 *   - a query asked again while the index is unchanged is answered from the generation memo (memo.ts).
 */
import type { Hit } from '../engine.ts'
import { facetTotals, indexSize, urnWindow, type Commands } from './companions.ts'
import { facetCounts, subtractCounts, type FacetCounts } from './facets.ts'
import { GenerationMemo } from './memo.ts'
import { rankedHits } from './ranking.ts'

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
const totals = new GenerationMemo<FacetCounts>((v) => 1 + [...v.values()].reduce((n, b) => n + Math.ceil(b.size / 16), 0))

/** The facet counts of every document of the index (companions.ts), remembered per generation. */
function indexFacets(client: Commands, q: ShardQuery): Promise<FacetCounts> {
  return totals.get(client, q.index, '', () => facetTotals(client, q.index, q.facets))
}

/** Facet counts of the `total` matches of a query: grouped directly, or as totals minus the non-matches. */
async function queryFacets(client: Commands, q: ShardQuery, total: number): Promise<FacetCounts> {
  if (total === 0 || q.facets.length === 0) return new Map(q.facets.map((f) => [f, new Map()]))
  if (2 * total <= await indexSize(client, q.index)) return facetCounts(client, q.index, q.query, q.facets)
  const [all, outside] = await Promise.all([indexFacets(client, q), facetCounts(client, q.index, `-(${q.query})`, q.facets)])
  return subtractCounts(all, outside)
}

export async function searchShard(client: Commands, q: ShardQuery): Promise<ShardAnswer> {
  if (q.matchAll) {
    const [total, urns, facets] = await Promise.all([indexSize(client, q.index), urnWindow(client, q.index, q.skip ?? 0, q.window), indexFacets(client, q)])
    return { total, hits: urns.map((urn) => ({ urn, score: 0 })), facets }
  }
  const compute = async () => {
    const ranked = await rankedHits(client, q.index, q.keyPrefix, q.query, q.window, q.scored, await indexSize(client, q.index))
    return { ...ranked, facets: await queryFacets(client, q, ranked.total), window: q.window }
  }
  if (q.window > MEMO_WINDOW) return compute()
  // The query string determines `scored` (words) and the index its facet fields: it is the key.
  const answer = await memo.get(client, q.index, q.query, compute, (v) => v.window >= q.window || v.hits.length >= v.total)
  return { total: answer.total, hits: answer.hits.slice(q.skip ?? 0, q.window), facets: answer.facets }
}
