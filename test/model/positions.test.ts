/** Positions grouped by a key (model/positions.ts): each group's positions in order, groups by first appearance. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { positionsBy } from '../../model/positions.ts'

test('positions group by key in order; an undefined key leaves its item out', () => {
  const items = ['b1', 'a1', 'b2', 'c1', 'a2']
  assert.equal([...positionsBy(items, (s) => s[0])], [['b', [0, 2]], ['a', [1, 4]], ['c', [3]]])
  assert.equal([...positionsBy(items, (s, i) => (i % 2 === 0 ? s[0] : undefined))], [['b', [0, 2]], ['a', [4]]])
  assert.equal([...positionsBy([], () => 1)], [])
})

test.run()
