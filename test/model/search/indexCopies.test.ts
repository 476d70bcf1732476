/**
 * The pure parts of the native engine's gateway copy (model/search/native/lexiconCopy.ts, facetCopy.ts): searching a
 * lexicon by block strings and by trigrams finds exactly what comparing every value finds, through adds and deletes
 * that cross blocks and rebuild the trigram lists, and so do prefixes and ranges read from the order of pairs, their
 * documents' numbers, and pages read in their urns' order (pairsCopy.ts, sortedEntries.ts, through its merges); facet
 * counts from a bitmap equal counting each document's values.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FacetCopy, FacetValues } from '../../../model/search/native/facetCopy.ts'
import { LexiconCopy } from '../../../model/search/native/lexiconCopy.ts'
import { PairsCopy, pairOf, suggestionParts, type RangeCondition } from '../../../model/search/native/pairsCopy.ts'
import { normalizeSuggestion, wordStarts } from '../../../model/search/suggest.ts'
import { FIELD_SEP, VALUE_SEP } from '../../../model/search/native/entries.ts'
import { byCodeUnits, firstInOrder } from '../../../model/search/native/sortedEntries.ts'

function random(seed: number): () => number {
  let s = seed
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

test('pairs copy: suggestion entries from a prefix equal every word start of every name, through adds and deletes', () => {
  const rnd = random(11)
  const words = ['ab', 'abc', 'b', 'ba', 'x', 'x1', '7']
  const name = () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => words[Math.floor(rnd() * words.length)]).join(rnd() < 0.5 ? ' ' : '_')
  const copy = new PairsCopy()
  const held = new Set<string>()
  const check = () => {
    for (const text of ['', 'a', 'ab', 'abc', 'b a', 'x1', '7', 'ab_b', 'q']) {
      const naive = [...held].flatMap((pair) => {
        const value = pair.slice(0, pair.indexOf('\u0000'))
        const normalized = normalizeSuggestion(value)
        const number = Number(pair.slice(pair.lastIndexOf('\u0000') + 1))
        return wordStarts(normalized).map((at) => `${normalized.slice(at)}\u0000${value}\u0000${number}`)
      }).filter((entry) => entry.startsWith(text)).sort(byCodeUnits).slice(0, 30)
      assert.equal(copy.suggestionsFrom(text, 30), naive, JSON.stringify(text))
    }
  }
  for (let n = 0; n < 3000; n++) {
    const pair = pairOf(name(), `urn:x:${n}`, n)
    copy.add(pair)
    held.add(pair)
  }
  check()
  for (const pair of [...held]) if (rnd() < 0.3) { copy.delete(pair); held.delete(pair) }
  for (let n = 3000; n < 5000; n++) {
    const pair = pairOf(name(), `urn:x:${n}`, n)
    copy.add(pair)
    held.add(pair)
  }
  check()
  const [first] = copy.suggestionsFrom('ab', 1)
  assert.equal(suggestionParts(first!).text.startsWith('ab'), true)
  assert.is(copy.urnOf(suggestionParts(first!).number), `urn:x:${suggestionParts(first!).number}`)
})

test('lexicon copy: CONTAIN and END_WITH equal a comparison of every value, through adds and deletes', () => {
  const rnd = random(7)
  const syllables = ['ab', 'ba', 'ca', 'da', 'x', 'yz', '_', '.', '1', '22']
  const word = () => Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => syllables[Math.floor(rnd() * syllables.length)]).join('')
  const copy = new LexiconCopy((v) => v.toLowerCase())
  const held = new Set<string>()
  const check = () => {
    for (const needle of ['', 'a', 'ab', 'aba', '_1', '22', 'zx', 'ab_', 'x.y', 'dadada', 'q', '\u0001', '\u0000', 'a\u0000ab', 'ba\u0001']) {
      const lower = needle.toLowerCase()
      const naive = (cond: 'CONTAIN' | 'END_WITH') => [...held].filter((v) => cond === 'CONTAIN' ? v.toLowerCase().includes(lower) : v.toLowerCase().endsWith(lower)).sort()
      assert.equal(copy.find('CONTAIN', lower).sort(), naive('CONTAIN'), `CONTAIN ${JSON.stringify(needle)}`)
      assert.equal(copy.find('END_WITH', lower).sort(), naive('END_WITH'), `END_WITH ${JSON.stringify(needle)}`)
    }
  }
  for (let i = 0; i < 3000; i++) {
    const v = rnd() < 0.1 ? word().toUpperCase() : word()
    copy.add(v)
    held.add(v)
  }
  check()
  for (const v of [...held]) if (rnd() < 0.4) { copy.delete(v); held.delete(v) }
  copy.delete('never there')
  check()
  for (let i = 0; i < 500; i++) { const v = `${word()}\u0001${word()}`; copy.add(v); held.add(v) }
  check()
  // Values holding the END_WITH order's separator, and deletes after that order was built.
  for (let i = 0; i < 300; i++) { const v = `${word()}\u0000${word()}`; copy.add(v); held.add(v) }
  for (const v of [...held]) if (rnd() < 0.2) { copy.delete(v); held.delete(v) }
  check()
  // Churn enough to rebuild the trigram lists (more deletes than values), then the same answers.
  for (let round = 0; round < 4; round++) {
    for (const v of [...held]) if (rnd() < 0.5) { copy.delete(v); held.delete(v) }
    for (let i = 0; i < 1500; i++) { const v = word() + word(); copy.add(v); held.add(v) }
    check()
  }
  assert.is(copy.size, held.size)
})

test('pairs in order: EQUAL, START_WITH and the ranges (pairs and numbers), CONTAIN and END_WITH (numbers), pages in urn order and urns by number equal a comparison of every pair, through adds, deletes and merges', () => {
  const rnd = random(11)
  const letters = 'abcxyz_1'
  const name = () => Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => letters[Math.floor(rnd() * letters.length)]).join('')
  // Document k is urn:svc:dataset:k; some have two names.
  const urnOf = (k: number) => `urn:svc:dataset:${k}`
  const pair = () => { const k = Math.floor(rnd() * 3000); return `${name()}\u0000${urnOf(k)}\u0000${k}` }
  const copy = new PairsCopy()
  const held = new Set<string>()
  const nameOf = (p: string) => p.slice(0, p.indexOf('\u0000'))
  const numberOf = (p: string) => Number(p.slice(p.lastIndexOf('\u0000') + 1))
  const tests: Record<RangeCondition, (n: string, v: string) => boolean> = {
    EQUAL: (n, v) => n === v, START_WITH: (n, v) => n.startsWith(v), GREATER_THAN: (n, v) => n > v, GREATER_THAN_OR_EQUAL_TO: (n, v) => n >= v,
    LESS_THAN: (n, v) => n < v, LESS_THAN_OR_EQUAL_TO: (n, v) => n <= v,
  }
  const check = () => {
    // The last two hold the pairs' separator, which no value holds.
    for (const v of ['', 'a', 'ab', 'b', 'c_1', 'x', 'zz', 'zzzzzz', '1', 'ab\u0000z', 'x\u0000']) {
      for (const [cond, test] of Object.entries(tests) as [RangeCondition, (n: string, v: string) => boolean][]) {
        const naive = [...held].filter((p) => test(nameOf(p), v)).sort()
        assert.equal(copy.pairsWhere(cond, v, Infinity).sort(), naive, `${cond} ${JSON.stringify(v)}`)
        const few = copy.pairsWhere(cond, v, 3)
        assert.ok(few.length === Math.min(naive.length, 4) && few.every((p) => test(nameOf(p), v)), `${cond} ${JSON.stringify(v)} limited`)
        assert.equal([...copy.numbersWhere(cond, v)].sort((a, b) => a - b), naive.map(numberOf).sort((a, b) => a - b), `${cond} ${JSON.stringify(v)} numbers`)
      }
    }
    // CONTAIN and END_WITH: the pairs' numbers (read from beside the pairs for CONTAIN) equal those of the pairs found.
    for (const v of ['a', 'ab', 'c_1', 'xyz', 'b', '_', 'zz']) {
      for (const [cond, test] of [['CONTAIN', (n: string) => n.includes(v)], ['END_WITH', (n: string) => n.endsWith(v)]] as const) {
        const naive = [...held].filter((p) => test(nameOf(p))).map(numberOf).sort((a, b) => a - b)
        assert.equal([...copy.numbersWhere(cond, v)].sort((a, b) => a - b), naive, `${cond} ${JSON.stringify(v)} numbers`)
      }
    }
    const documents = [...new Set([...held].map(numberOf))]
    for (let k = 0; k < 3000; k++) assert.is(copy.urnOf(k), documents.includes(k) ? urnOf(k) : undefined, `urn of ${k}`)
    for (const share of [1, 0.5, 0.01]) {
      const accepted = new Set(documents.filter(() => rnd() < share))
      const inOrder = [...accepted].map(urnOf).sort()
      for (const [from, count] of [[0, 10], [5, 7], [inOrder.length - 3, 10]] as const) {
        assert.equal(copy.pageByUrn((n) => accepted.has(n), from, count), inOrder.slice(Math.max(0, from), from + count), `page ${from} of ${share}`)
      }
    }
  }
  for (let i = 0; i < 2000; i++) { const p = pair(); copy.add(p); held.add(p) }
  check()
  // Enough changes after the orders were built to merge their waiting changes several times.
  for (let round = 0; round < 3; round++) {
    for (const p of [...held]) if (rnd() < 0.4) { copy.delete(p); held.delete(p) }
    for (let i = 0; i < 1500; i++) { const p = pair(); copy.add(p); held.add(p) }
    check()
  }
})

/** `field`'s values counted above 0 in `counts` (by value id), with their counts. */
function counted(values: FacetValues, counts: Uint32Array, field: string): [string, number][] {
  return values.idsOf(field).filter((id) => (counts[id] ?? 0) > 0).map((id) => [values.lower(id), counts[id]!])
}

/** Counts most frequent first, ties by value (a copy gives them in no order). */
const ranked = (list: [string, number][] | undefined) => [...(list ?? [])].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))

test('facet copy: counts from a bitmap or from numbers equal counting each document, a freed number counts nothing', () => {
  const facets = new FacetCopy()
  const line = (tags: string[], platform: string) => [['tags', ...tags].join(VALUE_SEP), ['platform', platform].join(VALUE_SEP)].join(FIELD_SEP)
  facets.set(0, line(['gold', 'pii'], 'hive'))
  facets.set(9, line(['gold'], 'kafka'))
  facets.set(17, line([], 'hive'))
  facets.set(3, line(['pii'], 'hive'))
  facets.set(3, undefined)
  const bitmap = Buffer.alloc(3)
  for (const n of [0, 3, 9, 17]) bitmap[n >> 3]! |= 0x80 >> (n & 7)
  const counts = facets.countBitmap(bitmap)
  assert.equal(ranked(counted(facets.values, counts, 'tags')), [['gold', 2], ['pii', 1]])
  assert.equal(ranked(counted(facets.values, counts, 'platform')), [['hive', 2], ['kafka', 1]])
  assert.equal(counted(facets.values, counts, 'owners'), [])
  assert.equal(facets.countNumbers([0, 3, 9, 17]), counts, 'by numbers as by bitmap')
})

test('facet copies of several shards share their values\' ids: their counts add up by id', () => {
  const values = new FacetValues()
  const [a, b] = [new FacetCopy(values), new FacetCopy(values)]
  a.set(0, ['tags', 'gold', 'pii'].join(VALUE_SEP))
  b.set(0, ['tags', 'silver'].join(VALUE_SEP))
  b.set(1, ['tags', 'gold'].join(VALUE_SEP))
  const [ca, cb] = [a.countNumbers([0]), b.countNumbers([0, 1])]
  const sums = new Uint32Array(values.size)
  for (const counts of [ca, cb]) counts.forEach((n, id) => { sums[id] += n })
  assert.equal(ranked(counted(values, sums, 'tags')), [['gold', 2], ['pii', 1], ['silver', 1]])
  assert.equal(ranked(counted(values, ca, 'tags')), [['gold', 1], ['pii', 1]], 'a count made before a value was known counts it 0')
})

test('facet copy: lines set again and again (packed anew many times) count as the last line of each document', () => {
  const facets = new FacetCopy()
  const last = new Map<number, string[]>()
  let seed = 7
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  for (let step = 0; step < 20_000; step++) {
    const n = Math.floor(random() * 3000)
    if (random() < 0.1) { facets.set(n, undefined); last.delete(n); continue }
    const tags = Array.from({ length: Math.floor(random() * 4) }, () => `t${Math.floor(random() * 30)}`)
    facets.set(n, ['tags', ...new Set(tags)].join(VALUE_SEP))
    last.set(n, [...new Set(tags)])
  }
  // A third of the documents, then two thirds (counted by their complement: the values' totals less the rest's).
  for (const [share, numbers] of [['a third', [...last.keys()].filter((n) => n % 3 === 0)], ['two thirds', [...last.keys()].filter((n) => n % 3 !== 0)]] as const) {
    const bitmap = Buffer.alloc(3000 / 8 + 1)
    for (const n of numbers) bitmap[n >> 3]! |= 0x80 >> (n & 7)
    const expected = new Map<string, number>()
    for (const n of numbers) for (const t of last.get(n)!) expected.set(t, (expected.get(t) ?? 0) + 1)
    const sorted = [...expected].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    assert.equal(ranked(counted(facets.values, facets.countBitmap(bitmap), 'tags')), sorted, share)
    assert.equal(ranked(counted(facets.values, facets.countBitmap(bitmap, numbers.length), 'tags')), sorted, `${share}, its count given`)
    assert.equal(ranked(counted(facets.values, facets.countNumbers(numbers), 'tags')), sorted, `${share}, by numbers`)
    facets.compact()
    assert.equal(ranked(counted(facets.values, facets.countBitmap(bitmap, numbers.length), 'tags')), sorted, `${share}, packed in order`)
  }
})

test('the first k strings in code-unit order equal sorting them all, for any k, duplicates kept', () => {
  let seed = 11
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const strings = Array.from({ length: 2000 }, () => `urn:x:${Math.floor(random() * 1500).toString(36)}${random() < 0.1 ? 'Z' : ''}`)
  for (const k of [0, 1, 10, 37, 499, 500, 501, 1999, 2000, 5000]) {
    assert.equal(firstInOrder([...strings], k, (s) => s), [...strings].sort(byCodeUnits).slice(0, k), `k = ${k}`)
  }
})

test.run()
