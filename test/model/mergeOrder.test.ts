/** Merging lists each in order (model/mergeOrder.ts), pure: the order taken, heads begun anywhere, stopping early. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { mergeOrder } from '../../model/mergeOrder.ts'

/** The items mergeOrder takes from `lists` (numbers, ascending) from heads `at`, at most `most`. */
function merged(lists: number[][], at: number[], most = Infinity): number[] {
  const out: number[] = []
  mergeOrder(at, lists.map((l) => l.length), (a, b) => lists[a]![at[a]!]! < lists[b]![at[b]!]!, (k) => {
    out.push(lists[k]![at[k]!]!)
    return out.length < most
  })
  return out
}

test('every item comes out in order, whatever the number of lists and their lengths', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const lists: number[][] = Array.from({ length: seed + (seed % 3 === 0 ? 17 : 0) }, () => [])
    for (let i = 0; i < 40 * seed; i++) lists[(i * 31 + seed) % lists.length]!.push((i * 104_729 + seed) % 9973)
    for (const list of lists) list.sort((a, b) => a - b)
    const at = lists.map(() => 0)
    assert.equal(merged(lists, at), lists.flat().sort((a, b) => a - b), `seed ${seed}`)
    assert.equal(at, lists.map((l) => l.length), `seed ${seed}: every head moved past its list`)
  }
})

test('heads that begin inside their lists, empty lists, and a take that stops', () => {
  const lists = [[1, 4, 9], [], [2, 3, 10, 11], [5], [0, 6]]
  assert.equal(merged(lists, [1, 0, 2, 1, 0]), [0, 4, 6, 9, 10, 11])
  const at = [0, 0, 0, 0, 0]
  assert.equal(merged(lists, at, 4), [0, 1, 2, 3])
  // The last item taken is still at its head: the caller reads it there.
  assert.equal(at, [1, 0, 1, 0, 1])
  assert.equal(merged([[], []], [0, 0]), [])
})

test.run()
