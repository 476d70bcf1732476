/**
 * `node ops/bench/sortedAdds.ts`: what keeping strings in order while they change costs a gateway's copy
 * (model/search/native/sortedEntries.ts, the order of a paired field's pairs and of END_WITH's reversed values): adds
 * SORTED_N (100,000) urns of the live scenario's catalogue in a shuffled order, as a load's writes bring them, then
 * deletes half, three rounds, and prints the time per add and per delete.
 */
import { SortedEntries } from '../../model/search/native/sortedEntries.ts'
import { liveDataset, seeded } from './liveCatalogue.ts'

const N = Number(process.env.SORTED_N ?? 100_000)
const urns = Array.from({ length: N }, (_, i) => liveDataset(i).urn)
const rnd = seeded(7)
for (let i = urns.length - 1; i > 0; i--) {
  const j = Math.floor(rnd() * (i + 1))
  ;[urns[i], urns[j]] = [urns[j]!, urns[i]!]
}
for (let round = 1; round <= 3; round++) {
  const entries = new SortedEntries([], (entry) => entry.length)
  let t0 = performance.now()
  for (const urn of urns) entries.add(urn)
  const adds = performance.now() - t0
  t0 = performance.now()
  for (let i = 0; i < N / 2; i++) entries.delete(urns[i]!)
  const deletes = performance.now() - t0
  process.stdout.write(`round ${round}: ${N} adds ${Math.round(adds)} ms (${((adds * 1000) / N).toFixed(2)} us each), ${N / 2} deletes ${Math.round(deletes)} ms (${((deletes * 2000) / N).toFixed(2)} us each)\n`)
}
