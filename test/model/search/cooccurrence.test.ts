/**
 * The redisearch engine's facet co-occurrence counts, pure (model/search/redisearch/cooccurrence.ts) and which
 * queries its sole-facet answer takes (soleFacet.ts): after any sequence of documents written, rewritten (values
 * kept, gained, lost, moved between fields) and removed, the counts moved by each document's pair changes equal
 * the counts made from scratch from the documents as they are, and every value's facet counts read from its hash
 * equal the facet counts of its documents.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { cooccurringCounts, pairChanges, pairMember, type DocumentFacets } from '../../../model/search/redisearch/cooccurrence.ts'
import { soleFacetOf, valuesNamed } from '../../../model/search/redisearch/soleFacet.ts'
import type { Criterion } from '../../../model/search/types.ts'

function random(seed: number): () => number {
  let s = seed
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

const FACETS = ['platform', 'tags', 'owners']
const VALUES = ['a', 'b', 'c', 'd']

function randomDoc(rnd: () => number): DocumentFacets {
  return new Map(FACETS.map((f) => [f, new Set(VALUES.filter(() => rnd() < (f === 'platform' ? 0.3 : 0.5)))]))
}

/** key `field\x1fvalue` -> member -> count, as the hashes hold them. */
type Hashes = Map<string, Map<string, number>>

function fromScratch(docs: Iterable<DocumentFacets>): Hashes {
  const hashes: Hashes = new Map()
  for (const doc of docs) {
    for (const [f, values] of doc) {
      for (const v of values) {
        for (const [g, others] of doc) {
          for (const w of others) {
            if (f === g && v === w) continue
            const h = hashes.get(pairMember(f, v)) ?? hashes.set(pairMember(f, v), new Map()).get(pairMember(f, v))!
            h.set(pairMember(g, w), (h.get(pairMember(g, w)) ?? 0) + 1)
          }
        }
      }
    }
  }
  return hashes
}

const positive = (h: Hashes) => [...h].map(([k, m]) => [k, [...m].filter(([, n]) => n !== 0).sort()] as const).filter(([, m]) => m.length > 0).sort()

test('counts moved by each write equal counts from scratch, after writes, rewrites and removals', () => {
  for (let seed = 1; seed <= 8; seed++) {
    const rnd = random(seed)
    const docs = new Map<number, DocumentFacets>()
    const kept: Hashes = new Map()
    for (let step = 0; step < 300; step++) {
      const id = Math.floor(rnd() * 20)
      const before = docs.get(id) ?? new Map()
      const after = rnd() < 0.2 ? new Map() : rnd() < 0.2 ? before : randomDoc(rnd)
      if (after.size === 0) docs.delete(id)
      else docs.set(id, after)
      const changes = pairChanges(before, after)
      if (after === before) assert.equal(changes, [], 'an unchanged document moves nothing')
      for (const c of changes) {
        const h = kept.get(pairMember(c.field, c.value)) ?? kept.set(pairMember(c.field, c.value), new Map()).get(pairMember(c.field, c.value))!
        h.set(c.other, (h.get(c.other) ?? 0) + c.delta)
        assert.ok(h.get(c.other)! >= 0, 'no count below 0')
      }
    }
    assert.equal(positive(kept), positive(fromScratch(docs.values())), `seed ${seed}`)
    // Each value's facet counts, read from its hash, equal its documents' facet counts.
    for (const f of FACETS) {
      for (const v of VALUES) {
        const mine = [...docs.values()].filter((d) => d.get(f)!.has(v))
        const hash = [...(kept.get(pairMember(f, v)) ?? new Map())].flatMap(([m, n]) => [m, String(n)])
        const counts = cooccurringCounts(FACETS, f, v, mine.length, hash)
        const expected = new Map(FACETS.map((g) => [g, new Map<string, number>()]))
        for (const d of mine) for (const [g, values] of d) for (const w of values) expected.get(g)!.set(w, (expected.get(g)!.get(w) ?? 0) + 1)
        const sorted = (c: Map<string, Map<string, number>>) => [...c].map(([g, m]) => [g, [...m].sort()])
        assert.equal(sorted(counts), sorted(expected), `${f}=${v}, seed ${seed}`)
      }
    }
  }
})

test('a sole facet value: field:value, or * with one EQUAL on a facet field, and nothing else', () => {
  const eq = (field: string, values: string[], extra: Partial<Criterion> = {}): Criterion => ({ field, condition: 'EQUAL', values, negated: false, numeric: false, ...extra })
  assert.equal(soleFacetOf({ text: { kind: 'field', field: 'tags', value: 'Legacy' }, filter: [] }, FACETS), { field: 'tags', value: 'Legacy' })
  assert.equal(soleFacetOf({ text: { kind: 'all' }, filter: [[eq('platform', ['hive'])]] }, FACETS), { field: 'platform', value: 'hive' })
  assert.is(soleFacetOf({ text: { kind: 'field', field: 'name', value: 'x' }, filter: [] }, FACETS), undefined, 'not a facet field')
  assert.is(soleFacetOf({ text: { kind: 'field', field: 'tags', value: 'a' }, filter: [[eq('platform', ['hive'])]] }, FACETS), undefined, 'with a filter')
  assert.is(soleFacetOf({ text: { kind: 'all' }, filter: [[eq('platform', ['hive', 'kafka'])]] }, FACETS), undefined, 'two values')
  assert.is(soleFacetOf({ text: { kind: 'all' }, filter: [[eq('platform', ['hive'], { negated: true })]] }, FACETS), undefined, 'negated')
  assert.is(soleFacetOf({ text: { kind: 'all' }, filter: [[eq('platform', ['hive'])], [eq('tags', ['a'])]] }, FACETS), undefined, 'two groups')
  assert.is(soleFacetOf({ text: { kind: 'all' }, filter: [[eq('platform', ['a|b'])]] }, FACETS), undefined, 'a separator')
  assert.is(soleFacetOf({ text: { kind: 'words', words: [{ token: 'x', prefix: false }] }, filter: [] }, FACETS), undefined, 'words')
})

test('the facet values a name matches: any case, or a urn by its id', () => {
  const listed = ['urn:svc:dataPlatform:hive', 'urn:svc:dataPlatform:kafka', 'urn:svc:corpuser:jdoe', 'urn:svc:corpGroup:jdoe', 'PROD']
  assert.equal(valuesNamed(listed, 'HIVE', true), ['urn:svc:dataPlatform:hive'])
  assert.equal(valuesNamed(listed, 'urn:svc:dataplatform:KAFKA', true), ['urn:svc:dataPlatform:kafka'])
  assert.equal(valuesNamed(listed, 'jdoe', true), ['urn:svc:corpuser:jdoe', 'urn:svc:corpGroup:jdoe'])
  assert.equal(valuesNamed(listed, 'hive', false), [])
  assert.equal(valuesNamed(listed, 'prod', false), ['PROD'])
})

test.run()
