/**
 * The hits of one index in the service's order, relevance (DISMAX score) descending then urn ascending, complete
 * up to a window: the first `window` hits are exactly those of that order, even when many tie at the window's
 * boundary. RediSearch orders equal scores by its internal document id (insertion order), so a plain
 * `LIMIT 0 window` picks an arbitrary part of the boundary's tie group; paging then repeats and drops matches.
 *
 * How: one pass gives the top `window` by score (its members above the lowest score `s` returned are exactly
 * right). If more matches exist, the rest of the window comes from the tie group of `s`, taken in urn order:
 *   - when the query matches most of the index (a word every document has), by walking the index's urns in order
 *     (companions.ts) a chunk at a time, asking which of each chunk match and how they score (INKEYS, which
 *     leaves scores as they are): a few small queries, where sorting every match by urn visits them all;
 *   - otherwise, or when the walk finds too few, by passes sorted by urn (WITHSCORES still scores them), keeping
 *     those scored `s`.
 * A query without words (every hit scores 0) is the same tie group from the start. DISMAX scores depend on the
 * document and the query only (no corpus statistics), so hits of per-shard indexes compare across shards and
 * merge by (score desc, urn asc).
 */
import type { Hit } from '../engine.ts'
import { compareHits } from '../merge.ts'
import { urnWindow, type Commands } from './companions.ts'
import { QUERY_OPTIONS, queryArgs } from './query.ts'

export interface Ranked {
  total: number
  /** The first min(window, total) hits in (score desc, urn asc) order. */
  hits: Hit[]
}


/** Reads an FT.SEARCH NOCONTENT WITHSCORES reply: total and (key, score text) pairs. */
function parseScored(reply: unknown, keyPrefix: string): { total: number; hits: { urn: string; score: string }[] } {
  const r = reply as (string | number)[]
  const hits: { urn: string; score: string }[] = []
  for (let i = 1; i + 1 < r.length; i += 2) hits.push({ urn: String(r[i]).slice(keyPrefix.length), score: String(r[i + 1]) })
  return { total: Number(r[0]), hits }
}

/** How many documents of `index` match `query`. */
export async function countMatches(client: Commands, index: string, query: string): Promise<number> {
  return Number(((await client.sendCommand(['FT.SEARCH', ...queryArgs(index, query), 'NOCONTENT', 'LIMIT', '0', '0', ...QUERY_OPTIONS])) as unknown[])[0])
}

/** Walk chunks at most before falling back to passes sorted by urn; larger tie needs go to those passes at once. */
const MAX_WALK_CHUNKS = 4
const MAX_WALK_NEEDED = 1024
/** Queries without words longer than this are sorted by urn at once rather than counted first. */
const MAX_COUNTED_QUERY = 8192

/** A query's search on one index, as its passes need it. */
interface Asker {
  client: Commands
  index: string
  keyPrefix: string
  query: string
}

// TIMEOUT 0: the module's default (500 ms, then ON_TIMEOUT return) would cut a long pass short and rank a part.
const search = (a: Asker, extra: string[], offset: number, size: number) => a.client.sendCommand(['FT.SEARCH', ...queryArgs(a.index, a.query), 'NOCONTENT',
  ...extra, 'LIMIT', String(offset), String(size), ...QUERY_OPTIONS])

const toHit = (h: { urn: string; score: string }): Hit => ({ urn: h.urn, score: Number(h.score) })

/**
 * The first `needed` matches scored `score` (null: every match, unscored) in urn order, by walking the index's
 * urns; null when MAX_WALK_CHUNKS chunks did not hold that many (the tie group is sparse there).
 */
async function tiesByWalk(a: Asker, score: number | null, needed: number): Promise<Hit[] | null> {
  const chunk = Math.max(4 * needed, 256)
  const tied: Hit[] = []
  for (let c = 0; c < MAX_WALK_CHUNKS; c++) {
    const urns = await urnWindow(a.client, a.index, c * chunk, (c + 1) * chunk)
    if (urns.length > 0) {
      const keys = urns.map((u) => `${a.keyPrefix}${u}`)
      const page = parseScored(await search(a, ['WITHSCORES', 'SCORER', 'DISMAX', 'INKEYS', String(keys.length), ...keys], 0, keys.length), a.keyPrefix)
      // Unscored (null): in urn order alone, whatever the module scored (a filter clause a match meets adds to it).
      const inChunk = page.hits.map(toHit).flatMap((h) => (score === null ? [{ urn: h.urn, score: 0 }] : h.score === score ? [h] : []))
      for (const h of inChunk.sort(compareHits)) if (tied.length < needed) tied.push(h)
    }
    if (tied.length >= needed || urns.length < chunk) return tied
  }
  return null
}

/** The first `needed` matches scored `score` in urn order, by passes sorted by urn (visiting every match). */
async function tiesBySort(a: Asker, score: number, needed: number, total: number): Promise<Hit[]> {
  const tied: Hit[] = []
  let offset = 0
  let size = Math.max(4 * needed, 256)
  while (tied.length < needed && offset < total) {
    const page = parseScored(await search(a, ['WITHSCORES', 'SCORER', 'DISMAX', 'SORTBY', 'urn', 'ASC'], offset, size), a.keyPrefix)
    for (const h of page.hits) if (Number(h.score) === score && tied.length < needed) tied.push(toHit(h))
    if (page.hits.length < size) break
    offset += size
    size *= 4
  }
  return tied
}

/**
 * Windows up to this size are sorted by (score desc, urn asc) in the module itself where it can (RediSearch 2.10+:
 * FT.AGGREGATE ADDSCORES): one command of ~2.5 ms for a word's 3,500 matches, where the tie group's passes sorted
 * by urn took 40-60 ms. Larger windows cost the module more that way than the passes (a sort keeping 2,000 rows:
 * 50 ms), so they keep the passes.
 */
const SORTED_WINDOW = 100
/** Whether the module has ADDSCORES (null: not known yet; learnt from the first answer that asks: see noteScores). */
let sortsByScore: boolean | null = null

/** Whether the module gives relevance to FT.AGGREGATE (ADDSCORES, 2.10+); null while not known. */
export const moduleScores = (): boolean | null => sortsByScore

/**
 * Learns from a command that asked for ADDSCORES whether the module has it: `err` undefined (it answered) or its
 * error. Returns false when that error was the module not knowing ADDSCORES; any other error is thrown.
 */
export function noteScores(err?: unknown): boolean {
  if (err === undefined) return (sortsByScore = true)
  if (!/ADDSCORES/i.test(String((err as Error).message))) throw err
  return (sortsByScore = false)
}

/**
 * Whether the module ranks this window in one pass (a word query's window of up to SORTED_WINDOW hits, where the
 * module has ADDSCORES or may): cheaper than streaming every match's urn and relevance to rank them elsewhere
 * (a word's first page: ~11-14 ms of Redis with the facet stream, ~14-18 streamed with its urns and scores).
 */
export function ranksInOnePass(scored: boolean, window: number): boolean {
  return scored && window <= SORTED_WINDOW && sortsByScore !== false
}

/** The ranked window sorted by the module (ADDSCORES, 2.10+); null where the module does not know ADDSCORES. */
async function sortedByScore(a: Asker, window: number): Promise<Ranked | null> {
  let reply: unknown[]
  try {
    reply = (await a.client.sendCommand(['FT.AGGREGATE', ...queryArgs(a.index, a.query), 'ADDSCORES', 'SCORER', 'DISMAX',
      'SORTBY', '4', '@__score', 'DESC', '@urn', 'ASC', 'MAX', String(window), ...QUERY_OPTIONS])) as unknown[]
  } catch (err) {
    noteScores(err)
    return null
  }
  noteScores()
  const hits: Hit[] = []
  for (const row of reply.slice(1) as string[][]) {
    const fields = new Map<string, string>()
    for (let i = 0; i + 1 < row.length; i += 2) fields.set(String(row[i]), String(row[i + 1]))
    hits.push({ urn: fields.get('urn')!, score: Number(fields.get('__score')) })
  }
  return { total: Number(reply[0]), hits }
}

/**
 * The ranked window of `query` (DIALECT 2) on `index`, whose documents number `size`. `scored` is false for
 * queries without words: every hit then has relevance 0 and the order is the urn's alone.
 */
export async function rankedHits(client: Commands, index: string, keyPrefix: string, query: string, window: number, scored: boolean, size: number, counted?: number): Promise<Ranked> {
  const a: Asker = { client, index, keyPrefix, query }
  const walkable = (total: number, needed: number) => 2 * total > size && needed <= MAX_WALK_NEEDED
  if (!scored) {
    // Counting first (unless the caller did: `counted`) costs one more parse of the query: worth it unless the
    // query is long (a filter resolved to thousands of values, whose parsing dominates); such a query is sorted at once.
    const count = counted ?? (query.length <= MAX_COUNTED_QUERY ? await countMatches(client, index, query) : 0)
    const walked = walkable(count, window) ? await tiesByWalk(a, null, Math.min(window, count)) : null
    if (walked) return { total: count, hits: walked }
    const r = (await search(a, ['SORTBY', 'urn', 'ASC'], 0, window)) as (string | number)[]
    return { total: Number(r[0]), hits: r.slice(1).map((k) => ({ urn: String(k).slice(keyPrefix.length), score: 0 })) }
  }
  if (ranksInOnePass(scored, window)) {
    const sorted = await sortedByScore(a, window)
    if (sorted) return sorted
  }
  const top = parseScored(await search(a, ['WITHSCORES', 'SCORER', 'DISMAX'], 0, window), keyPrefix)
  const total = top.total
  if (top.hits.length === 0) return { total, hits: [] }
  if (top.hits.length >= total) return { total, hits: top.hits.map(toHit).sort(compareHits) }
  // The lowest score returned: every match scored above it was returned; its tie group may be cut.
  const boundary = top.hits.reduce((low, h) => Math.min(low, Number(h.score)), Infinity)
  const above = top.hits.map(toHit).filter((h) => h.score > boundary)
  const needed = window - above.length
  const tied = (walkable(total, needed) ? await tiesByWalk(a, boundary, needed) : null) ?? await tiesBySort(a, boundary, needed, total)
  return { total, hits: [...above.sort(compareHits), ...tied] }
}
