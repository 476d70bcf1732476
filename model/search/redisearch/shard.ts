/**
 * One index's part of a search: its match count, its hits in (score desc, urn asc) order complete up to a window,
 * and its facet counts. A sharded engine asks every shard's index for the same window and merges (hits by
 * compareHits, totals and counts summed); one index alone is the whole answer.
 *
 * Where the time goes, and what this does instead (100,000 documents, RediSearch 2.6):
 *   - match-all sorted by urn visits every document (FT.SEARCH * SORTBY urn: ~100 ms) and its facets group every
 *     document (FT.AGGREGATE GROUPBY: ~150 ms per facet field): answered from the companions instead (ordered
 *     urns, each facet value's urns), a few commands whatever the size.
 *   - other queries' facets: every match's facet line streamed and counted here (facets.ts); and when the query
 *     matches most of the index (a word every document has: ~100 ms to group 100,000 matches), the index's totals
 *     minus the counts of the documents it does not match (`-(query)`: a few documents, about 1 ms).
 *   - a query matching at most half the index: its page ranked here from the same stream (streamedAnswer);
 *     a denser one's stable pages with ties: ranking.ts.
 *   - a query asked again while the index is unchanged is answered from the generation memo (memo.ts).
 */
import type { Hit } from '../engine.ts'
import { facetTotals, indexSize, urnWindow, type Commands } from './companions.ts'
import { compareHits } from '../merge.ts'
import { facetCounts, streamMatches, subtractCounts, type FacetCounts } from './facets.ts'
import { GenerationMemo } from './memo.ts'
import { countMatches, moduleScores, noteScores, rankedHits, ranksInOnePass } from './ranking.ts'

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

/** Facet counts of the `total` matches of a query on an index of `size` documents: streamed, or as totals minus the non-matches'. */
async function queryFacets(client: Commands, q: ShardQuery, total: number, size: number): Promise<FacetCounts> {
  if (total === 0 || q.facets.length === 0) return new Map(q.facets.map((f) => [f, new Map()]))
  if (2 * total <= size) return facetCounts(client, q.index, q.query, q.facets)
  const [all, outside] = await Promise.all([indexFacets(client, q), facetCounts(client, q.index, `-(${q.query})`, q.facets)])
  return subtractCounts(all, outside)
}

/**
 * The answer of a query matching at most half of its index (`count` of `size` documents) that has facets to count
 * (a word query's first pages excepted: see searchShard). Its matches are streamed once for their facet lines
 * anyway, so the same stream brings each one's urn (and relevance, for words) and the window is ranked here,
 * where the module ranked in passes of its own (FT.SEARCH WITHSCORES over a deep window, then its tie group sorted
 * by urn: ~30 ms of Redis for a word's page from 1,000-2,000) or sorted every match by urn (FT.SEARCH SORTBY urn:
 * 18 ms for 8,300 matches). Null for a denser query (its facets are the totals less the non-matches', its urns
 * walked in order: ranking.ts), and for words on a module without ADDSCORES (before 2.10).
 */
async function streamedAnswer(client: Commands, q: ShardQuery, count: number, size: number): Promise<Omit<ShardAnswer, 'window'> | null> {
  if (2 * count > size || (q.scored && moduleScores() === false)) return null
  let streamed
  try {
    streamed = await streamMatches(client, q.index, q.query, q.facets, q.scored ? 'scored' : 'urn')
    if (q.scored) noteScores()
  } catch (err) {
    if (q.scored && !noteScores(err)) return null
    throw err
  }
  const hits = streamed.hits.sort(compareHits)
  return { total: hits.length, hits: hits.slice(0, q.window), facets: streamed.facets }
}

export async function searchShard(client: Commands, q: ShardQuery): Promise<ShardAnswer> {
  if (q.matchAll) {
    const [total, urns, facets] = await Promise.all([indexSize(client, q.index), urnWindow(client, q.index, q.skip ?? 0, q.window), indexFacets(client, q)])
    return { total, hits: urns.map((urn) => ({ urn, score: 0 })), facets }
  }
  const compute = async () => {
    const size = await indexSize(client, q.index)
    // No more hits than documents: a page from deep past them asks the module for no more (it refuses a LIMIT past
    // MAXSEARCHRESULTS, 1,000,000: a 500 for a page from 1,000,000 of a word most documents have).
    const window = Math.min(q.window, size)
    // With facets to count, the matches are counted first (how they are counted and ranked depends on how many),
    // but for a word query's first pages, which the module ranks in one pass (ranking.ts) for less than a stream
    // of every match's urn and relevance costs.
    const count = q.facets.length > 0 && !ranksInOnePass(q.scored, window) ? await countMatches(client, q.index, q.query) : undefined
    if (count === 0) return { total: 0, hits: [], facets: await queryFacets(client, q, 0, size), window: q.window }
    const streamed = count !== undefined ? await streamedAnswer(client, { ...q, window }, count, size) : null
    if (streamed) return { ...streamed, window: q.window }
    const ranked = await rankedHits(client, q.index, q.keyPrefix, q.query, window, q.scored, size, count)
    return { ...ranked, facets: await queryFacets(client, q, ranked.total, size), window: q.window }
  }
  // The query string determines `scored` (words) and the index its facet fields: it is the key.
  const answer = q.window > MEMO_WINDOW ? await compute() : await memo.get(client, q.index, q.query, compute, (v) => v.window >= q.window || v.hits.length >= v.total)
  return { total: answer.total, hits: answer.hits.slice(q.skip ?? 0, q.window), facets: answer.facets }
}
