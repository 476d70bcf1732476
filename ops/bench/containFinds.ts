/**
 * `node ops/bench/containFinds.ts`: what CONTAIN of a word costs a gateway's copy of a paired field
 * (model/search/native/pairsCopy.ts, its search in lexiconCopy.ts): the pairs of CONTAIN_N (100,000) datasets of the
 * live scenario's catalogue (their key names, as the `name` field holds them), then CONTAIN of each of the
 * vocabulary's 400 words, four rounds, printing the time per search and the values found, then the same searches for
 * their documents' numbers (what a query's filter needs: numbersWhere, read from beside the pairs).
 */
import { PairsCopy, pairOf } from '../../model/search/native/pairsCopy.ts'
import { liveDataset, WORDS } from './liveCatalogue.ts'

const N = Number(process.env.CONTAIN_N ?? 100_000)
const copy = new PairsCopy()
for (let i = 0; i < N; i++) {
  const d = liveDataset(i)
  copy.add(pairOf(d.keyName.toLowerCase(), d.urn, i))
}
// The first CONTAIN builds the trigram lists.
copy.pairsWhere('CONTAIN', 'abc', 10)
for (let round = 1; round <= 4; round++) {
  let found = 0
  const t0 = performance.now()
  for (const word of WORDS) found += copy.pairsWhere('CONTAIN', word, Infinity).length
  const us = ((performance.now() - t0) * 1000) / WORDS.length
  const t1 = performance.now()
  for (const word of WORDS) copy.numbersWhere('CONTAIN', word)
  const numbersUs = ((performance.now() - t1) * 1000) / WORDS.length
  process.stdout.write(`round ${round}: ${Math.round(us)} us a search, ${Math.round(found / WORDS.length)} values found on average; ${Math.round(numbersUs)} us for their numbers\n`)
}
