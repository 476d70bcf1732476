/** The first k items of a list in an order without sorting it (model/search/firstK.ts), pure, against a sort. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { firstK, insertAt } from '../../../model/search/firstK.ts'

const byCount = (a: { n: number }, b: { n: number }) => b.n - a.n

test('the first k of random lists are those of a stable sort, equal items in list order', () => {
  let seed = 7
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32
  for (let round = 0; round < 300; round++) {
    const items = Array.from({ length: Math.floor(rnd() * 60) }, (_, at) => ({ n: Math.floor(rnd() * 8), at }))
    for (const k of [0, 1, 3, 20, 100]) {
      assert.equal(firstK(items, k, byCount), [...items].sort(byCount).slice(0, k), `round ${round}, k ${k}`)
    }
  }
})

test('the list given is not changed, and any iterable will do', () => {
  const items = [3, 1, 2]
  assert.equal(firstK(items, 2, (a, b) => a - b), [1, 2])
  assert.equal(items, [3, 1, 2])
  assert.equal(firstK(new Set([5, 4, 6]), 5, (a, b) => a - b), [4, 5, 6])
})

test('insertAt puts an item where splice would', () => {
  for (let length = 0; length < 5; length++) {
    for (let at = 0; at <= length; at++) {
      const list = Array.from({ length }, (_, i) => i)
      const expected = [...list]
      expected.splice(at, 0, -1)
      insertAt(list, at, -1)
      assert.equal(list, expected, `length ${length}, at ${at}`)
    }
  }
})

test.run()
