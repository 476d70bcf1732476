/**
 * The postings of the copy of the words (model/search/native/wordCopy.ts), pure: documents loaded, then added,
 * changed (words, scores, another urn under the same number), deleted and added again in any order, with postings
 * read now and then (which merges their waiting changes) and left unread for long stretches (which merge them
 * when many): every posting read lists its word's documents by score, then urn, with their scores, as a recount of
 * the live documents does.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeWords, WordCopy } from '../../../model/search/native/wordCopy.ts'

function random(seed: number): () => number {
  let s = seed
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

const VOCABULARY = ['prod', 'hive', 'kafka', 'orders', 'users', 'daily', 'events', 'revenue', 'a', 'b', 'c', 'd']

/** A document's words: `prod` always (a word every document has), others at random, scores of a few values (ties). */
function wordsOf(rnd: () => number): Map<string, number> {
  const words = new Map<string, number>([['prod', 1]])
  for (const w of VOCABULARY) if (rnd() < 0.3) words.set(w, 1 + Math.floor(rnd() * 3))
  return words
}

/** What word `word`'s posting must be: its live documents by score (minus the relevance), then urn. */
function expected(live: Map<number, { urn: string; words: Map<string, number> }>, word: string): { numbers: number[]; scores: number[] } {
  const docs = [...live].filter(([, d]) => d.words.has(word)).map(([n, d]) => ({ n, urn: d.urn, score: -d.words.get(word)! }))
  docs.sort((a, b) => a.score - b.score || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0))
  return { numbers: docs.map((d) => d.n), scores: docs.map((d) => d.score) }
}

function check(copy: WordCopy, live: Map<number, { urn: string; words: Map<string, number> }>, word: string, when: string): void {
  const id = copy.idOf(word)
  const want = expected(live, word)
  if (id === undefined) return assert.is(want.numbers.length, 0, `${when}: ${word} has documents but no id`)
  assert.equal(Array.from(copy.posting(id)), want.numbers, `${when}: ${word}'s documents`)
  assert.equal(Array.from(copy.scoresOf(id)), want.scores, `${when}: ${word}'s scores`)
}

test('postings stay in order through writes, whether read after each or after hundreds', () => {
  for (let seed = 1; seed <= 6; seed++) {
    const rnd = random(seed)
    const copy = new WordCopy()
    const live = new Map<number, { urn: string; words: Map<string, number> }>()
    const urn = (n: number) => `urn:x:${Math.floor(rnd() * 1e6)}:${n}`
    for (let n = 0; n < 300; n++) live.set(n, { urn: urn(n), words: wordsOf(rnd) })
    for (const [n, d] of live) copy.loadDocument(n, d.urn, encodeWords(d.words))
    copy.seal()
    // Seeds 1-3 read a posting every few writes, 4-6 rarely (long waits, merged when many).
    const readEvery = seed <= 3 ? 7 : 400
    for (let step = 0; step < 4000; step++) {
      const n = Math.floor(rnd() * 600)
      const roll = rnd()
      if (roll < 0.15) {
        copy.delete(n)
        live.delete(n)
      } else {
        const old = live.get(n)
        // Another urn under a known number now and then (a number given back and taken by another document).
        const doc = { urn: old && roll < 0.8 ? old.urn : urn(n), words: roll < 0.5 && old ? new Map([...old.words].map(([w, s]) => [w, w === 'daily' ? s + 1 : s])) : wordsOf(rnd) }
        copy.set(n, doc.urn, encodeWords(doc.words))
        live.set(n, doc)
      }
      if (step % readEvery === 0) check(copy, live, VOCABULARY[Math.floor(rnd() * VOCABULARY.length)]!, `seed ${seed}, step ${step}`)
    }
    for (const word of VOCABULARY) check(copy, live, word, `seed ${seed}, at the end`)
  }
})

test.run()
