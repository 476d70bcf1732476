/**
 * Lists by position (model/positions.ts): positions grouped by a key, each group's in order, groups by first appearance;
 * answers read once per group put back at their items' positions; the items at given positions.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { itemsAt, positionsBy, readByGroup } from '../../model/positions.ts'

test('positions group by key in order; an undefined key leaves its item out', () => {
  const items = ['b1', 'a1', 'b2', 'c1', 'a2']
  assert.equal([...positionsBy(items, (s) => s[0])], [['b', [0, 2]], ['a', [1, 4]], ['c', [3]]])
  assert.equal([...positionsBy(items, (s, i) => (i % 2 === 0 ? s[0] : undefined))], [['b', [0, 2]], ['a', [4]]])
  assert.equal([...positionsBy([], () => 1)], [])
})

test('a read per group answers each item at its position; an item of no group, or unanswered, is undefined', async () => {
  const items = ['b1', 'a1', 'b2', 'x1', 'a2']
  const reads: [string, string[]][] = []
  const answers = await readByGroup(items, (s) => (s[0] === 'x' ? undefined : s[0]), async (key, group) => {
    reads.push([key, group])
    return key === 'a' ? group.map((s) => s.toUpperCase()).slice(0, 1) : group.map((s) => s.toUpperCase())
  })
  assert.equal(answers, ['B1', 'A1', 'B2', undefined, undefined])
  assert.equal(reads, [['b', ['b1', 'b2']], ['a', ['a1', 'a2']]])
  assert.equal(await readByGroup([], () => 1, async () => { throw new Error('no group, no read') }), [])
})

test('the items at positions, in the positions\' order, repeats kept', () => {
  assert.equal(itemsAt(['a', 'b', 'c'], [2, 0, 2]), ['c', 'a', 'c'])
  assert.equal(itemsAt(['a'], []), [])
})

test.run()
