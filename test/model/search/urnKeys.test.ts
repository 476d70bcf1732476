/**
 * The documents' keys in their urns' order (model/search/native/urnKeys.ts), pure: after keys made at once, then
 * documents added, re-added under another urn and gone, in any order (hundreds between the same two neighbours, so
 * that middles run out and every document is keyed again), the keys of the live documents order them as their urns do.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { UrnKeys } from '../../../model/search/native/urnKeys.ts'

function random(seed: number): () => number {
  let s = seed
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

function checkOrder(live: Map<number, string>, keys: UrnKeys, when: string): void {
  const docs = [...live]
  const byUrn = [...docs].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)).map(([n]) => n)
  const byKey = [...docs].sort((a, b) => keys.keyOf(a[0]) - keys.keyOf(b[0])).map(([n]) => n)
  assert.equal(byKey, byUrn, when)
}

test('keys order the live documents as their urns, through additions, changes, removals and rekeying', () => {
  for (let seed = 1; seed <= 5; seed++) {
    const rnd = random(seed)
    const live = new Map<number, string>()
    const keys = new UrnKeys((n) => live.get(n))
    for (let n = 0; n < 50; n++) live.set(n, `urn:x:${Math.floor(rnd() * 1e6)}:${n}`)
    keys.build([...live])
    checkOrder(live, keys, `seed ${seed}, built`)
    for (let step = 0; step < 3000; step++) {
      const n = Math.floor(rnd() * 400)
      if (rnd() < 0.15) {
        live.delete(n)
        continue
      }
      // Half of them crowd between two neighbours (`urn:x:5` < `urn:x:50...` < `urn:x:6`): middles run out.
      const urn = rnd() < 0.5 ? `urn:x:5${`0`.repeat(1 + Math.floor(step / 20))}${n}` : `urn:x:${Math.floor(rnd() * 1e6)}:${n}`
      if (live.get(n) === urn) continue
      live.set(n, urn)
      keys.add(n, urn)
      if (step % 97 === 0) checkOrder(live, keys, `seed ${seed}, step ${step}`)
    }
    checkOrder(live, keys, `seed ${seed}, end`)
  }
})

test.run()
