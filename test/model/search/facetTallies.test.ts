/**
 * The facet counts a gateway keeps for frequent words and values, pure (model/search/native/facetTallies.ts): after
 * any sequence of documents' words and facet values written, rewritten and removed, in either order (the change log
 * interleaves them), with tables made at any moment, every kept table equals the counts computed from scratch from
 * the copies as they are (a union of words' too: each document once), and every kept bitmap of a value's documents
 * the documents that have it; word ids reused by other words, and new value ids, included.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FacetCopy, hasBit } from '../../../model/search/native/facetCopy.ts'
import { FacetTallies } from '../../../model/search/native/facetTallies.ts'
import { encodeWords, WordCopy } from '../../../model/search/native/wordCopy.ts'
import { FIELD_SEP, VALUE_SEP } from '../../../model/search/native/entries.ts'

function random(seed: number): () => number {
  let s = seed
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

const WORDS = ['a', 'b', 'c', 'd', 'e', 'f']
const pickSome = (rnd: () => number, list: readonly string[], most: number) => list.filter(() => rnd() < most / list.length)

/** A facet line of a platform (one of 3) and some tags (values appear as the run goes on: new ids). */
function lineOf(rnd: () => number, step: number): string {
  const tags = pickSome(rnd, Array.from({ length: 3 + Math.floor(step / 40) }, (_, k) => `t${k}`), 2)
  return [`platform${VALUE_SEP}p${Math.floor(rnd() * 3)}`, ...(tags.length > 0 ? [[`tags`, ...tags].join(VALUE_SEP)] : [])].join(FIELD_SEP)
}

test('kept facet counts of words and values equal counts from scratch after any changes', () => {
  for (let seed = 1; seed <= 6; seed++) {
    const rnd = random(seed)
    const words = new WordCopy()
    words.seal()
    const facets = new FacetCopy()
    // Every word and value kept, or only those of 4 documents or more (the others counted as they come).
    const tallies = new FacetTallies(seed % 2 === 0 ? 1 : 4)
    tallies.attach(words, facets)
    const live = new Set<number>()
    for (let step = 0; step < 400; step++) {
      const n = Math.floor(rnd() * 25)
      const r = rnd()
      if (r < 0.35) words.set(n, `urn:${n}`, encodeWords(new Map(pickSome(rnd, WORDS, 3).map((w) => [w, -1 - Math.floor(rnd() * 3)]))))
      else if (r < 0.7) facets.set(n, lineOf(rnd, step))
      else if (r < 0.8) {
        // A document removed: its values, then its words (as the log's UNDOC entry does).
        facets.set(n, undefined)
        words.delete(n)
        live.delete(n)
        continue
      } else {
        // Read tables (made on first read) and compare.
        for (const word of WORDS) {
          const id = words.idOf(word)
          if (id === undefined) continue
          const kept = tallies.ofWord(id)
          if (kept) assert.equal(Array.from(kept), Array.from(facets.countNumbers(Array.from(words.posting(id)))), `seed ${seed} step ${step} word ${word}`)
        }
        // A prefix's words: their union's counts, each document once.
        const some = WORDS.filter(() => rnd() < 0.5).map((w) => words.idOf(w)).filter((id) => id !== undefined)
        const union = [...new Set(some.flatMap((id) => Array.from(words.posting(id))))]
        assert.equal(Array.from(tallies.ofWords(some)!), Array.from(facets.countNumbers(union)), `seed ${seed} step ${step} words ${some.join(',')}`)
        for (let id = 0; id < facets.values.size; id++) {
          const kept = tallies.ofValue(id)
          if (kept) assert.equal(Array.from(kept), Array.from(facets.countHaving(id)), `seed ${seed} step ${step} value ${facets.values.lower(id)}`)
          const bitmap = tallies.documentsOf(id)
          const fresh = facets.bitmapHaving(id)
          if (bitmap) assert.equal(Array.from({ length: 32 }, (_, n) => hasBit(bitmap, n)), Array.from({ length: 32 }, (_, n) => hasBit(fresh, n)), `seed ${seed} step ${step} documents of ${facets.values.lower(id)}`)
        }
      }
      live.add(n)
    }
  }
})

test.run()
