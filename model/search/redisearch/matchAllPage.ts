/**
 * A deep page of match-all across shard indexes. Merging each shard's first start+count urns costs O(start) per
 * shard (a page from 5,000 on 16 shards moved 80,000 urns). Instead: urns spread evenly over shards (they are
 * hashed), so the smallest of each shard's urn at its share of `start` has about `start` urns before it in all;
 * counting them exactly (ZLEXCOUNT per shard) tells which of the urns from it on are wanted, and each shard sends
 * only that many (start - before + count) from it on. Exact whatever the spread: a pivot with more than `start`
 * urns before it is dropped, and every shard then sends from its first urn.
 */
import { compareHits } from '../merge.ts'
import { countBefore, indexSize, urnAt, urnsFrom, type Commands } from './companions.ts'

/** Pages starting before this are cheaper merged from each shard's first start+count urns (fewer round trips). */
export const DEEP_PAGE = 100

export interface ShardIndex {
  client: Commands
  index: string
}

export async function matchAllPage(shards: readonly ShardIndex[], start: number, count: number): Promise<string[]> {
  const sizes = await Promise.all(shards.map((s) => indexSize(s.client, s.index)))
  const total = sizes.reduce((a, b) => a + b, 0)
  if (start >= total || count <= 0) return []
  const candidates = await Promise.all(shards.map((s, k) => sizes[k]! > 0 ? urnAt(s.client, s.index, Math.min(sizes[k]! - 1, Math.floor((start * sizes[k]!) / total))) : undefined))
  let pivot = candidates.filter((u): u is string => u !== undefined).reduce<string | undefined>((a, b) => (a === undefined || b < a ? b : a), undefined)
  let before = pivot === undefined ? 0 : (await Promise.all(shards.map((s) => countBefore(s.client, s.index, pivot!)))).reduce((a, b) => a + b, 0)
  if (before > start) {
    pivot = undefined
    before = 0
  }
  const wanted = start - before + count
  const lists = await Promise.all(shards.map((s) => urnsFrom(s.client, s.index, pivot, wanted)))
  return lists.flat().map((urn) => ({ urn, score: 0 })).sort(compareHits).slice(start - before, start - before + count).map((h) => h.urn)
}
