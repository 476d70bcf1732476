/** Autocomplete ranking, pure: the top of a union of shards' suggestions is the top of their tops. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mergeSuggestions } from '../../../model/search/merge.ts'
import { rankSuggestions, topSuggestions } from '../../../model/search/suggest.ts'

test('merging each shard\'s top `limit` gives the same suggestions as ranking them all', () => {
  const words = ['orders', 'orders daily', 'Orders', 'order book', 'orders_2024', 'ordering', 'ord', 'ordinal', 'sorted orders', 'old orders']
  const all = words.map((text) => ({ text, whole: !text.startsWith('sorted') && !text.startsWith('old') }))
  for (let seed = 1; seed <= 20; seed++) {
    const shards: { text: string; whole: boolean }[][] = [[], [], []]
    all.forEach((s, i) => shards[(i * seed + seed) % 3]!.push({ ...s }))
    for (const limit of [1, 3, 5, 20]) {
      const expected = rankSuggestions(all.map((s) => ({ ...s })), limit)
      const merged = rankSuggestions(mergeSuggestions(shards.map((list) => topSuggestions([...list], limit))), limit)
      assert.equal(merged, expected, `seed ${seed}, limit ${limit}`)
    }
  }
})

test.run()
