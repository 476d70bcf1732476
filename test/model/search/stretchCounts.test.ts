/**
 * A large stretch of a name's pairs answered without reading its documents' values, pure (pairsCopy.ts
 * stretchAnswer, stretchCounts.ts): after any sequence of names changed, documents removed and added again and facet
 * values rewritten (in either order, with the pairs' order merging its waiting changes on the way), its total, its
 * facet counts and its page in urn order equal those worked out from scratch; a document with two names stops it
 * (the caller then counts the documents) until it has one again.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FacetCopy } from '../../../model/search/native/facetCopy.ts'
import { pairOf, PairsCopy, type RangeCondition } from '../../../model/search/native/pairsCopy.ts'
import { blockSize } from '../../../model/search/native/stretchCounts.ts'
import { FIELD_SEP, VALUE_SEP } from '../../../model/search/native/entries.ts'

function random(seed: number): () => number {
  let s = seed
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

const DOCUMENTS = 6000
const urnOf = (n: number) => `urn:x:${String(n).padStart(5, '0')}`
const nameOf = (rnd: () => number) => `n${String(Math.floor(rnd() * 100_000)).padStart(5, '0')}`
const lineOf = (rnd: () => number, step: number) =>
  [`platform${VALUE_SEP}p${Math.floor(rnd() * 4)}`, `tags${VALUE_SEP}t${Math.floor(rnd() * (3 + step / 500))}${VALUE_SEP}u${Math.floor(rnd() * 3)}`].join(FIELD_SEP)
const MEETS: Record<RangeCondition, (value: string, v: string) => boolean> = {
  EQUAL: (value, v) => value === v,
  START_WITH: (value, v) => value.startsWith(v),
  GREATER_THAN: (value, v) => value > v,
  GREATER_THAN_OR_EQUAL_TO: (value, v) => value >= v,
  LESS_THAN: (value, v) => value < v,
  LESS_THAN_OR_EQUAL_TO: (value, v) => value <= v,
}
const CONDITIONS = Object.keys(MEETS) as RangeCondition[]

test('a large stretch answered by blocks equals its answer from scratch after any changes', () => {
  for (let seed = 1; seed <= 3; seed++) {
    const rnd = random(seed)
    const pairs = new PairsCopy()
    const facets = new FacetCopy()
    const names = new Map<number, string>()
    const put = (n: number, name: string) => {
      const had = names.get(n)
      if (had === name) return
      // The change log gives the new pair before or after the old one goes (deleting a pair gone does nothing).
      if (rnd() < 0.5 && had) pairs.delete(pairOf(had, urnOf(n), n))
      pairs.add(pairOf(name, urnOf(n), n))
      if (had) pairs.delete(pairOf(had, urnOf(n), n))
      names.set(n, name)
    }
    for (let n = 0; n < DOCUMENTS; n++) {
      put(n, nameOf(rnd))
      facets.set(n, lineOf(rnd, 0))
    }
    let answered = 0
    for (let step = 0; step < 4000; step++) {
      const n = Math.floor(rnd() * DOCUMENTS)
      const r = rnd()
      if (r < 0.3) put(n, nameOf(rnd))
      else if (r < 0.6) facets.set(n, lineOf(rnd, step))
      else if (r < 0.7 && names.has(n)) {
        pairs.delete(pairOf(names.get(n)!, urnOf(n), n))
        names.delete(n)
        facets.set(n, undefined)
      } else if (r < 0.8 && !names.has(n)) {
        put(n, nameOf(rnd))
        facets.set(n, lineOf(rnd, step))
      }
      if (step % 25 !== 0) continue
      const condition = CONDITIONS[step / 25 % CONDITIONS.length]!
      const v = condition === 'START_WITH' ? 'n' : `n${String(Math.floor(rnd() * 100_000)).padStart(5, '0')}`
      const from = step % 75 === 0 ? Math.floor(rnd() * 40) : 0
      const got = pairs.stretchAnswer(condition, v, facets)
      const matching = [...names].filter(([, name]) => MEETS[condition](name, v)).map(([m]) => m).sort((a, b) => a - b)
      if (!got) {
        assert.ok(matching.length < 2048, `${condition} ${v}: ${matching.length} documents, not answered by blocks`)
        continue
      }
      answered++
      assert.is(got.total, matching.length, `${condition} ${v}: total`)
      const expected = facets.countNumbers(matching)
      assert.equal(Array.from(got.counts.subarray(0, expected.length)), Array.from(expected), `${condition} ${v}: facet counts`)
      // Its page as the engine reads it (in the urns' order, testing each document), and its documents' numbers.
      assert.equal(pairs.pageByUrn(got.holds, from, 10), matching.slice(from, from + 10).map(urnOf), `${condition} ${v} from ${from}: page`)
      assert.equal(Array.from(got.numbers()).sort((a, b) => a - b), matching, `${condition} ${v}: numbers`)
    }
    assert.ok(answered > 50, `answered by blocks ${answered} times`)
  }
})

/** 5,000 documents named n00000..n04999 in urn order, on one of 3 platforms. */
function fiveThousand(): { pairs: PairsCopy; facets: FacetCopy } {
  const pairs = new PairsCopy()
  const facets = new FacetCopy()
  for (let n = 0; n < 5000; n++) {
    pairs.add(pairOf(`n${String(n).padStart(5, '0')}`, urnOf(n), n))
    facets.set(n, `platform${VALUE_SEP}p${n % 3}`)
  }
  return { pairs, facets }
}

test('a document with two names stops the answer by blocks until it has one again', () => {
  const { pairs, facets } = fiveThousand()
  const ask = () => pairs.stretchAnswer('GREATER_THAN_OR_EQUAL_TO', 'n', facets)
  assert.is(ask()?.total, 5000)
  assert.equal(pairs.pageByUrn(ask()!.holds, 0, 3), [urnOf(0), urnOf(1), urnOf(2)])
  pairs.add(pairOf('zzz', urnOf(7), 7))
  assert.is(ask(), undefined)
  pairs.delete(pairOf('n00007', urnOf(7), 7))
  const again = ask()
  assert.is(again?.total, 5000)
  assert.is(again?.counts[facets.values.id('platform', 'p1')], 1667)
})

test('a type of more facet values than blocks pay for is answered from its documents', () => {
  const { pairs, facets } = fiveThousand()
  const ask = () => pairs.stretchAnswer('GREATER_THAN', 'n', facets)
  assert.is(ask()?.total, 5000)
  // An owner per document: 5,003 values.
  for (let n = 0; n < 5000; n++) facets.set(n, [`platform${VALUE_SEP}p${n % 3}`, `owners${VALUE_SEP}o${n}`].join(FIELD_SEP))
  assert.is(ask(), undefined)
})

test('blocks are sized by the order and the facet values: a power of two from 64 to 1,024', () => {
  assert.is(blockSize(100_000, 250), 1024)
  assert.is(blockSize(6_000, 250), 256)
  assert.is(blockSize(6_000, 20), 64)
  assert.is(blockSize(0, 0), 64)
  assert.is(blockSize(10_000_000, 2048), 1024)
})

test.run()
