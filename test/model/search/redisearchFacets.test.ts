/**
 * The redisearch engine's facet counts streamed a chunk of matches per command (model/search/redisearch/facets.ts),
 * on the pass's Redis with the search module (skipped without one): counts over many chunks, a last partial chunk,
 * multi-valued fields, fields no document has and documents without facet values equal the counts made here from
 * the documents themselves. Each document's facet values are one line (fields.ts facetLine), sortable and unindexed.
 * The same stream, asked for, lists every match's urn, and for words its relevance as FT.SEARCH scores it.
 */
import { randomUUID } from 'node:crypto'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { FtConnection } from '../../../model/search/redisearch/connection.ts'
import { facetCounts, streamMatches } from '../../../model/search/redisearch/facets.ts'
import { FACETS_FIELD, facetLine } from '../../../model/search/redisearch/fields.ts'
import { testSearchTarget } from '../../helpers/service.ts'

const target = testSearchTarget()
if (!target) {
  test.skip('SKIPPED: no Redis with the search module', () => {})
  console.log('redisearch facet streaming: SKIPPED, no Redis with the search module was found')
} else {
  const conn = new FtConnection(target)
  const prefix = `test:${randomUUID()}:{f1}:`
  const index = `${prefix}idx`
  const client = { sendCommand: (args: string[]) => conn.raw(index, args, false) }
  const docs = Array.from({ length: 53 }, (_, i) => ({
    key: `${prefix}doc:${i}`, word: i % 3 === 0 ? 'zebra' : 'plain',
    platform: `urn:svc:dataPlatform:p${i % 4}`, tags: i % 5 === 0 ? [] : [`urn:svc:tag:T${i % 7}`, `urn:svc:tag:T${(i + 1) % 7}`],
  }))
  const expected = (keep: (d: (typeof docs)[number]) => boolean) => {
    const counts = new Map([['platform', new Map<string, number>()], ['tags', new Map<string, number>()], ['domains', new Map<string, number>()]])
    for (const d of docs.filter(keep)) {
      counts.get('platform')!.set(d.platform, (counts.get('platform')!.get(d.platform) ?? 0) + 1)
      for (const t of d.tags) counts.get('tags')!.set(t, (counts.get('tags')!.get(t) ?? 0) + 1)
    }
    return counts
  }
  const sorted = (m: Map<string, Map<string, number>>) => [...m].map(([f, b]) => [f, [...b].sort()])

  test.before(async () => {
    // SKIPINITIALSCAN: every document is written after the index, and a scan of the keyspace (the earlier suites'
    // keys) would re-index documents while the cursor walks the index, which misses them.
    await conn.raw(index, ['FT.CREATE', index, 'ON', 'HASH', 'PREFIX', '1', `${prefix}doc:`, 'SKIPINITIALSCAN', 'SCHEMA', 'w', 'TEXT',
      'urn', 'TAG', 'SORTABLE', 'UNF', FACETS_FIELD, 'TAG', 'SORTABLE', 'UNF', 'NOINDEX'], false)
    for (const d of docs) {
      const line = facetLine(new Map([['platform', [d.platform]], ['tags', d.tags], ['domains', []]]))
      await client.sendCommand(['HSET', d.key, 'w', d.word, 'urn', d.key.slice(prefix.length), FACETS_FIELD, line])
    }
  })
  test.after(async () => {
    await conn.raw(index, ['FT.DROPINDEX', index, 'DD'], false).catch(() => {})
    await conn.close()
  })

  test('counts streamed in chunks of 1, 4, 10 and 1,000 equal the documents\' own', async () => {
    for (const chunk of [1, 4, 10, 1000]) {
      assert.equal(sorted(await facetCounts(client, index, '*', ['platform', 'tags', 'domains'], chunk)), sorted(expected(() => true)), `all, chunk ${chunk}`)
      assert.equal(sorted(await facetCounts(client, index, '@w:(zebra)', ['platform', 'tags', 'domains'], chunk)), sorted(expected((d) => d.word === 'zebra')), `zebra, chunk ${chunk}`)
      assert.equal(sorted(await facetCounts(client, index, '@w:(nothing)', ['platform', 'tags'], chunk)), [['platform', []], ['tags', []]], `no match, chunk ${chunk}`)
    }
  })
  test('the stream lists every match once with its urn, and for words the relevance FT.SEARCH gives it', async () => {
    for (const chunk of [4, 1000]) {
      const all = await streamMatches(client, index, '*', ['platform'], 'urn', chunk)
      assert.equal(all.hits.map((h) => h.urn).sort(), docs.map((d) => d.key.slice(prefix.length)).sort(), `urns, chunk ${chunk}`)
      assert.equal(sorted(all.facets), sorted(new Map([['platform', expected(() => true).get('platform')!]])))
      let scored
      try {
        scored = await streamMatches(client, index, '@w:(zebra)', ['platform'], 'scored', chunk)
      } catch (err) {
        assert.match(String(err), /ADDSCORES/i, 'only a module without ADDSCORES refuses')
        continue
      }
      const reply = (await client.sendCommand(['FT.SEARCH', index, '@w:(zebra)', 'NOCONTENT', 'WITHSCORES', 'SCORER', 'DISMAX', 'LIMIT', '0', '1000', 'DIALECT', '2'])) as string[]
      const expectedScores = new Map<string, number>()
      for (let i = 1; i + 1 < reply.length; i += 2) expectedScores.set(String(reply[i]).slice(prefix.length), Number(reply[i + 1]))
      assert.equal(new Map(scored.hits.map((h) => [h.urn, h.score])), expectedScores, `scores, chunk ${chunk}`)
    }
  })
  test.run()
}
