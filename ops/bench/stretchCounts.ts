/**
 * `node ops/bench/stretchCounts.ts`: what a `name GREATER_THAN <word>` costs a gateway's copy of the names
 * (model/search/native/pairsCopy.ts stretchAnswer: its facet counts by blocks, stretchCounts.ts): the pairs and facet
 * values (platform, tags, owner) of STRETCH_N (6,250: a cluster shard's share of 100,000 over 16 shards) datasets of
 * the live scenario's catalogue, then 2,000 `GREATER_THAN` of a random name's first word, five rounds, printing the
 * time per answer with its facet counts and how many were counted by blocks (the others, fewer pairs than two
 * blocks, by their documents' values, as the engine then counts them: numbersWhere, FacetCopy.countNumbers).
 */
import { FacetCopy } from '../../model/search/native/facetCopy.ts'
import { FIELD_SEP, VALUE_SEP } from '../../model/search/native/entries.ts'
import { pairOf, PairsCopy } from '../../model/search/native/pairsCopy.ts'
import { liveDataset, seeded } from './liveCatalogue.ts'

const N = Number(process.env.STRETCH_N ?? 6250)
const pairs = new PairsCopy()
const facets = new FacetCopy()
const firstWords: string[] = []
for (let n = 0; n < N; n++) {
  const d = liveDataset(n)
  const name = d.keyName.toLowerCase()
  pairs.add(pairOf(name, d.urn, n))
  facets.set(n, [`platform${VALUE_SEP}${d.platform}`, `tags${VALUE_SEP}${d.tags.join(VALUE_SEP)}`, `owners${VALUE_SEP}${d.owner}`].join(FIELD_SEP))
  firstWords.push(name.split('_')[0]!)
}
facets.compact()
const rnd = seeded(7)
for (let round = 1; round <= 5; round++) {
  let byBlocks = 0
  const t0 = performance.now()
  for (let q = 0; q < 2000; q++) {
    const word = firstWords[Math.floor(rnd() * N)]!
    if (pairs.stretchAnswer('GREATER_THAN', word, facets)) byBlocks++
    else facets.countNumbers(pairs.numbersWhere('GREATER_THAN', word))
  }
  const us = ((performance.now() - t0) * 1000) / 2000
  process.stdout.write(`round ${round}: ${us.toFixed(1)} us a GREATER_THAN, ${byBlocks} of 2,000 counted by blocks (${facets.values.size} facet values)\n`)
}
