/**
 * `node --expose-gc ops/bench/wordCopyWrites.ts`: what writes cost a gateway's copy of the words
 * (model/search/native/wordCopy.ts) at WORDS_DATASETS (100,000) documents of the live scenario's catalogue
 * (liveCatalogue.ts: every document has `prod`, its platform's name, its name's and description's words), in this
 * process alone: the copy is loaded and sealed as a gateway's is, then WORDS_CHANGES (2,000) new documents are
 * written, as many documents' descriptions change, and as many again change with two postings of random words read
 * after each (the live scenario's mix of writes and queries). Prints the microseconds per document of each; the
 * harness's own work (making each document's words) is in every figure. At 1,000,000 give Node room
 * (`--max-old-space-size=6000`; the load takes ~2 minutes).
 */
import { encodeWords, WordCopy } from '../../model/search/native/wordCopy.ts'
import { descriptionOf, liveDataset } from './liveCatalogue.ts'

const DATASETS = Number(process.env.WORDS_DATASETS ?? 100_000)
const CHANGES = Number(process.env.WORDS_CHANGES ?? 2000)

/** Document `i`'s words at `revision` of its description: urn, name and platform words at 1, description words at 0.5. */
function wordsOf(i: number, revision: number): Map<string, number> {
  const d = liveDataset(i)
  const words = new Map<string, number>()
  for (const w of `${d.platform} ${d.keyName} ${d.name} prod`.split(/[^a-z0-9]+/).filter(Boolean)) words.set(w, (words.get(w) ?? 0) + 1)
  for (const w of descriptionOf(i, revision).split(' ').filter(Boolean)) words.set(w, (words.get(w) ?? 0) + 0.5)
  return words
}

const copy = new WordCopy()
let started = performance.now()
for (let i = 0; i < DATASETS; i++) copy.loadDocument(i, liveDataset(i).urn, encodeWords(wordsOf(i, 0)))
copy.seal()
process.stdout.write(`copy of ${DATASETS} documents loaded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)

/** Runs `write(k)` CHANGES times after a full collection (the load's garbage is not the writes'); prints us per write. */
function measure(title: string, write: (k: number) => void): void {
  for (let k = 0; k < 3; k++) (globalThis as { gc?: () => void }).gc?.()
  started = performance.now()
  for (let k = 0; k < CHANGES; k++) write(k)
  process.stdout.write(`${title}: ${((performance.now() - started) * 1000 / CHANGES).toFixed(1)} us a document\n`)
}

const vocabulary = [...new Set(Array.from({ length: 500 }, (_, i) => [...wordsOf(i, 1).keys()]).flat())]
measure('new documents', (k) => copy.set(DATASETS + k, liveDataset(DATASETS + k).urn, encodeWords(wordsOf(DATASETS + k, 0))))
measure('descriptions changed', (k) => copy.set(k * 7, liveDataset(k * 7).urn, encodeWords(wordsOf(k * 7, 1))))
let read = 0
measure('descriptions changed, two postings read after each', (k) => {
  copy.set(k * 11, liveDataset(k * 11).urn, encodeWords(wordsOf(k * 11, 2)))
  for (let r = 0; r < 2; r++) {
    const id = copy.idOf(vocabulary[(k * 7 + r * 13) % vocabulary.length]!)
    if (id !== undefined) read += copy.posting(id).length + copy.scoresOf(id).length
  }
})
process.stdout.write(`(${read} postings' entries read)\n`)
