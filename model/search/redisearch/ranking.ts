/**
 * The hits of one index in the service's order, relevance (DISMAX score) descending then urn ascending, complete
 * up to a window: the first `window` hits are exactly those of that order, even when many tie at the window's
 * boundary. RediSearch orders equal scores by its internal document id (insertion order), so a plain
 * `LIMIT 0 window` picks an arbitrary part of the boundary's tie group; paging then repeats and drops matches.
 *
 * How: one pass gives the top `window` by score (its members above the lowest score `s` returned are exactly
 * right). If more matches exist, the rest of the window comes from the tie group of `s`, whose members are found
 * in urn order by passes sorted by urn (WITHSCORES still scores them), keeping those scored `s`. DISMAX scores
 * depend on the document and the query only (no corpus statistics), so hits of per-shard indexes compare
 * across shards and merge by (score desc, urn asc).
 */
import type { Commands } from './companions.ts'

export interface Hit {
  urn: string
  score: number
}

export interface Ranked {
  total: number
  /** The first min(window, total) hits in (score desc, urn asc) order. */
  hits: Hit[]
}

/** The service's order: relevance descending, then urn ascending. */
export function compareHits(a: Hit, b: Hit): number {
  return b.score - a.score || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0)
}

/** Reads an FT.SEARCH NOCONTENT WITHSCORES reply: total and (key, score text) pairs. */
function parseScored(reply: unknown, keyPrefix: string): { total: number; hits: { urn: string; score: string }[] } {
  const r = reply as (string | number)[]
  const hits: { urn: string; score: string }[] = []
  for (let i = 1; i + 1 < r.length; i += 2) hits.push({ urn: String(r[i]).slice(keyPrefix.length), score: String(r[i + 1]) })
  return { total: Number(r[0]), hits }
}

/**
 * The ranked window of `query` (DIALECT 2) on `index`. `scored` is false for queries without words: every hit
 * then has relevance 0 and the order is the urn's alone (one pass sorted by urn).
 */
export async function rankedHits(client: Commands, index: string, keyPrefix: string, query: string, window: number, scored: boolean): Promise<Ranked> {
  // TIMEOUT 0: the module's default (500 ms, then ON_TIMEOUT return) would cut a long pass short and rank a part.
  const search = (extra: string[], offset: number, size: number) => client.sendCommand(['FT.SEARCH', index, query, 'NOCONTENT',
    ...extra, 'LIMIT', String(offset), String(size), 'TIMEOUT', '0', 'DIALECT', '2'])
  if (!scored) {
    const r = (await search(['SORTBY', 'urn', 'ASC'], 0, window)) as (string | number)[]
    return { total: Number(r[0]), hits: r.slice(1).map((k) => ({ urn: String(k).slice(keyPrefix.length), score: 0 })) }
  }
  const top = parseScored(await search(['WITHSCORES', 'SCORER', 'DISMAX'], 0, window), keyPrefix)
  const total = top.total
  const toHit = (h: { urn: string; score: string }): Hit => ({ urn: h.urn, score: Number(h.score) })
  if (top.hits.length === 0) return { total, hits: [] }
  if (top.hits.length >= total) return { total, hits: top.hits.map(toHit).sort(compareHits) }
  // The lowest score returned: every match scored above it was returned; its tie group may be cut.
  let boundary = top.hits[0]!
  for (const h of top.hits) if (Number(h.score) < Number(boundary.score)) boundary = h
  const above = top.hits.filter((h) => Number(h.score) > Number(boundary.score)).map(toHit)
  const needed = window - above.length
  // The tie group in urn order: pages sorted by urn, growing, keeping the hits scored like the boundary.
  const tied: Hit[] = []
  let offset = 0
  let size = Math.max(4 * needed, 256)
  while (tied.length < needed && offset < total) {
    const page = parseScored(await search(['WITHSCORES', 'SCORER', 'DISMAX', 'SORTBY', 'urn', 'ASC'], offset, size), keyPrefix)
    for (const h of page.hits) if (Number(h.score) === Number(boundary.score) && tied.length < needed) tied.push(toHit(h))
    if (page.hits.length < size) break
    offset += size
    size *= 4
  }
  return { total, hits: [...above.sort(compareHits), ...tied] }
}
