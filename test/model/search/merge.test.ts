/**
 * Merging shards' hits, pure: the one-pass merge of lists in the global order equals sorting them all, so does a
 * range of ranks merged from a pivot, and a window gathered from each shard's share of it (asked again where a shard
 * may hold more) equals the whole merge.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Hit, ShardHits } from '../../../model/search/engine.ts'
import { compareHits, hitBefore, hitsRanked, mergeSorted, shardWindows, sumFacets } from '../../../model/search/merge.ts'

test('merging sorted lists takes the same first hits as sorting all of them', () => {
  for (let seed = 1; seed <= 10; seed++) {
    const lists: Hit[][] = Array.from({ length: 1 + ((seed * 5) % 17) }, () => [])
    for (let i = 0; i < 300; i++) lists[(i * seed * 7) % lists.length]!.push({ urn: `urn:x:${String((i * 7919 * seed) % 1000).padStart(4, '0')}`, score: (i * seed) % 4 })
    for (const list of lists) list.sort(compareHits)
    const all = lists.flat().sort(compareHits)
    for (const take of [0, 1, 10, 150, 300, 400]) assert.equal(mergeSorted(lists, take), all.slice(0, take), `seed ${seed}, take ${take}`)
  }
})

test('the hits at a range of ranks are those of the whole merge, spread evenly over the lists or not, ties or not', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const lists: Hit[][] = Array.from({ length: 1 + ((seed * 5) % 17) }, () => [])
    const skewed = seed % 3 === 0
    for (let i = 0; i < 2500; i++) {
      const k = skewed && i % 4 !== 0 ? 0 : (i * seed * 7919) % lists.length
      lists[k]!.push({ urn: `urn:x:${String((i * 7919 * seed) % 10_007).padStart(5, '0')}`, score: seed % 2 === 0 ? 1 : (i * seed) % 3 })
    }
    for (const list of lists) list.sort(compareHits)
    const all = lists.flat().sort(compareHits)
    for (const [from, to] of [[0, 10], [5, 15], [16, 26], [100, 110], [1000, 1010], [1990, 2010], [2495, 2510], [2600, 2610], [300, 300], [0, 2500]] as const) {
      assert.equal(hitsRanked(lists, from, to), all.slice(from, to), `seed ${seed}: ranks ${from}-${to}`)
    }
  }
})

test('hitBefore tells what compareHits < 0 tells, scores equal, apart or not numbers', () => {
  const hits: Hit[] = []
  for (const score of [0, -0, 1, 2.5, -3, Infinity, NaN]) for (const urn of ['urn:a', 'urn:b', 'urn:ab', 'urn:B', '']) hits.push({ urn, score })
  for (const a of hits) for (const b of hits) assert.is(hitBefore(a, b), compareHits(a, b) < 0, `${JSON.stringify(a)} ${JSON.stringify(b)}`)
})

test('a window gathered from each shard\'s share equals the merge of every shard\'s whole window, spread evenly or not', async () => {
  for (const [name, shardOf] of [['even', (i: number) => (i * 7919) % 16], ['skewed', (i: number) => (i % 9 === 0 ? 1 + (i % 15) : 0)], ['few', (i: number) => (i < 40 ? i % 16 : 3)]] as const) {
    const lists: Hit[][] = Array.from({ length: 16 }, () => [])
    for (let i = 0; i < 3000; i++) lists[shardOf(i)]!.push({ urn: `urn:x:${String((i * 7919) % 3000).padStart(5, '0')}`, score: i % 7 === 0 ? 2 : 1 })
    for (const list of lists) list.sort(compareHits)
    for (const window of [100, 250, 1010, 2990, 3000, 4000]) {
      const asked: number[] = []
      const ask = async (shard: number, size: number): Promise<ShardHits> => {
        asked.push(size)
        return { total: lists[shard]!.length, hits: lists[shard]!.slice(0, size), facets: [] }
      }
      const answers = await shardWindows(Array.from({ length: 16 }, (_, k) => k), window, ask)
      assert.equal(mergeSorted(answers.map((a) => a.hits), window), mergeSorted(lists, window), `${name}, window ${window}`)
      assert.equal(hitsRanked(answers.map((a) => a.hits), window - 10, window), mergeSorted(lists, window).slice(window - 10), `${name}, window ${window}: its last page`)
      assert.is(answers.length, 16)
      if (name === 'even' && window <= 1010) assert.ok(asked.every((size) => size < window / 4), `${name}, window ${window}: asked ${asked.join(',')}`)
      if (name === 'skewed') assert.ok(asked.includes(window), `${name}, window ${window}: the full shard is asked again`)
    }
  }
})

test('one shard\'s facets come out as summing them with nothing would: zeros dropped, the largest `limit` kept', () => {
  const facets = [
    { name: 'platform', aggregations: { hive: 3, kafka: 1 } },
    { name: 'tags', aggregations: { a: 5, b: 0, c: 2 } },
    { name: 'owners', aggregations: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`o${i}`, 1 + (i % 7)])) },
  ]
  for (const limit of [1, 2, 20, 100]) assert.equal(sumFacets([facets], limit), sumFacets([facets, []], limit), `limit ${limit}`)
  assert.is(sumFacets([facets], 100)[0], facets[0], 'a facet within the limit is kept as it is')
  assert.equal(sumFacets([facets], 100)[1]!.aggregations, { a: 5, c: 2 })
})

test.run()
