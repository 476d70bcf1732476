/**
 * The gateway's copy of the words and the queries it answers, pure (model/search/native/wordCopy.ts, wordQuery.ts):
 * after any sequence of documents written, rewritten and removed (numbers and word ids reused), every posting is in
 * its order and every query's answer equals one computed from scratch from the documents as they are.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeWords, WordCopy } from '../../../model/search/native/wordCopy.ts'
import { matchWords, type QueryWord } from '../../../model/search/native/wordQuery.ts'

const VOCABULARY = ['ab', 'abc', 'abd', 'b', 'bc', 'c', 'cab', 'd']
/** A small deterministic generator (tests repeat). */
function random(seed: number): () => number {
  let s = seed
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

interface Doc { urn: string; words: Map<string, number> }

/** The answer from scratch: every document with every word (a prefix: its best word), summed, in order. */
function expected(docs: Map<number, Doc>, words: QueryWord[], from: number, size: number) {
  const matches: { number: number; score: number; urn: string }[] = []
  for (const [number, doc] of docs) {
    let score = 0
    let ok = true
    for (const w of words) {
      const scores = [...doc.words].filter(([t]) => (w.prefix ? t.startsWith(w.token) : t === w.token)).map(([, s]) => -s)
      if (scores.length === 0) { ok = false; break }
      score += Math.min(...scores)
    }
    if (ok) matches.push({ number, score, urn: doc.urn })
  }
  matches.sort((a, b) => a.score - b.score || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0))
  return { total: matches.length, page: matches.slice(from, from + size).map(({ number, score }) => ({ number, score })) }
}

test('after writes, rewrites and removals, queries of words answer as computed from scratch', () => {
  for (let seed = 1; seed <= 8; seed++) {
    const rnd = random(seed)
    const copy = new WordCopy()
    const docs = new Map<number, Doc>()
    const draw = (): Map<string, number> => new Map(VOCABULARY.filter(() => rnd() < 0.35).map((t) => [t, 1 + Math.floor(rnd() * 3)]))
    // A first copy read whole, then changes as the log brings them.
    for (let n = 0; n < 30; n++) docs.set(n, { urn: `urn:x:${String(Math.floor(rnd() * 1000)).padStart(3, '0')}:${n}`, words: draw() })
    for (const [n, doc] of docs) copy.loadDocument(n, doc.urn, encodeWords(doc.words))
    copy.seal()
    for (let step = 0; step < 300; step++) {
      const n = Math.floor(rnd() * 40)
      if (rnd() < 0.2) {
        copy.delete(n)
        docs.delete(n)
      } else {
        // A new document may take a number another had.
        const doc = { urn: docs.get(n) && rnd() < 0.7 ? docs.get(n)!.urn : `urn:x:${String(Math.floor(rnd() * 1000)).padStart(3, '0')}:${n}`, words: draw() }
        docs.set(n, doc)
        copy.set(n, doc.urn, encodeWords(doc.words))
      }
      if (step % 10 !== 0) continue
      const queries: QueryWord[][] = [[{ token: 'ab', prefix: false }], [{ token: 'ab', prefix: true }], [{ token: 'c', prefix: true }],
        [{ token: 'b', prefix: false }, { token: 'ca', prefix: true }], [{ token: 'abc', prefix: false }, { token: 'd', prefix: false }], [{ token: 'zz', prefix: true }]]
      for (const words of queries) {
        const expansions = new Map(words.filter((w) => w.prefix).map((w) => [w.token, copy.expand(w.token, 100)]))
        for (const [from, size] of [[0, 5], [3, 4], [0, 100]] as const) {
          const got = matchWords(copy, words, expansions, undefined, from, size)
          const want = expected(docs, words, from, size)
          const where = `seed ${seed}, step ${step}, ${JSON.stringify(words)}, from ${from}`
          assert.is(got.total, want.total, where)
          assert.equal(got.page, want.page, where)
          assert.equal([...got.numbers].sort((a, b) => a - b), [...expected(docs, words, 0, 1000).page.map((m) => m.number)].sort((a, b) => a - b), where)
          // Without the list of every match (its facets are kept): the page read from the posting as it is.
          const unlisted = matchWords(copy, words, expansions, undefined, from, size, false)
          assert.is(unlisted.total, want.total, `${where}, unlisted`)
          assert.equal(unlisted.page, want.page, `${where}, unlisted`)
          // Documents a filter accepts (odd numbers), paged among themselves.
          const odd = new Map([...docs].filter(([n]) => n % 2 === 1))
          const kept = matchWords(copy, words, expansions, (n) => n % 2 === 1, from, size)
          assert.equal({ total: kept.total, page: kept.page }, expected(odd, words, from, size), `${where}, filtered`)
        }
      }
      // Words no document has any more are gone from the prefix expansion.
      const present = new Set([...docs.values()].flatMap((d) => [...d.words.keys()]))
      assert.equal(copy.expand('', 100).length, present.size, `seed ${seed}, step ${step}: words`)
    }
  }
})

test('a filter keeps the documents it accepts, in the same order', () => {
  const copy = new WordCopy()
  for (let n = 0; n < 10; n++) copy.loadDocument(n, `urn:x:${n}`, encodeWords(new Map([['w', n % 3]])))
  copy.seal()
  const all = matchWords(copy, [{ token: 'w', prefix: false }], new Map(), undefined, 0, 10)
  const even = matchWords(copy, [{ token: 'w', prefix: false }], new Map(), (n) => n % 2 === 0, 0, 10)
  assert.equal(even.page, all.page.filter((m) => m.number % 2 === 0))
  assert.is(even.total, 5)
})

test.run()
