/**
 * The queries a gateway asks itself before it reports ready (model/search/warmQueries.ts): every kind is asked and
 * answered (none refused: the warm-up's queries are valid ones), only types with enough documents are warmed, the
 * time budget bounds it, nothing is written; and a gateway configured to warm up reports ready once it has.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startGateway } from '../../../gateway/start.ts'
import { createLogger } from '../../../model/log.ts'
import type { SearchService } from '../../../model/search/service.ts'
import { interleave, warmQueries, wordsOf } from '../../../model/search/warmQueries.ts'
import { httpCall, startService, type TestService } from '../../helpers/service.ts'
import { snapshotStore } from '../../helpers/store.ts'

const DATASETS = 24
const WORDS = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord']
const urnOf = (i: number) => `urn:svc:dataset:(urn:svc:dataPlatform:${['hive', 'kafka'][i % 2]},${WORDS[i % 6]}_${WORDS[(i + 1) % 6]}_${i},PROD)`

let svc: TestService

/** The service's search, with every call recorded: what was asked and whether it was answered. */
function recorded(search: SearchService) {
  const calls: { method: string; req: any; ok: boolean }[] = []
  const spy = new Proxy(search, {
    get(target, prop) {
      const value = Reflect.get(target, prop)
      if (typeof value !== 'function') return value
      return async (req: unknown) => {
        try {
          const answer = await value.call(target, req)
          calls.push({ method: String(prop), req, ok: true })
          return answer
        } catch (err) {
          calls.push({ method: String(prop), req, ok: false })
          throw err
        }
      }
    },
  })
  return { spy, calls }
}

test.before(async () => {
  svc = await startService()
  const proposals = Array.from({ length: DATASETS }, (_, i) => [
    { entityType: 'dataset', entityUrn: urnOf(i), changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ name: `${WORDS[i % 6]} ${WORDS[(i + 1) % 6]} ${i}`, description: `the ${WORDS[(i + 2) % 6]} table` }), contentType: 'application/json' } },
    { entityType: 'dataset', entityUrn: urnOf(i), changeType: 'UPSERT', aspectName: 'globalTags', aspect: { value: JSON.stringify({ tags: [{ tag: `urn:li:tag:${WORDS[i % 3]}` }] }), contentType: 'application/json' } },
  ]).flat()
  const res = await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals })
  assert.is(res.status, 200, JSON.stringify(res.body))
})
test.after(async () => { await svc.close() })

test('words of urns: letters only, 3 or more, without what every urn of the type has', () => {
  const entity = svc.gateway.model.registry.entity('dataset')
  assert.equal(wordsOf(['urn:li:dataset:(urn:li:dataPlatform:hive,db.amber_cedar_7,PROD)', 'urn:li:dataset:(urn:li:dataPlatform:hive,Amber,PROD)'], entity),
    ['dataplatform', 'hive', 'amber', 'cedar', 'prod'])
  assert.equal([...interleave([[1, 2, 3], [], [10], [20, 21]])], [1, 10, 20, 2, 21, 3])
})

test('every kind of query is asked and answered, only of types with enough documents, and nothing is written', async () => {
  const { model } = svc.gateway
  const before = await snapshotStore(model.redis, svc.config.keyPrefix)
  const { spy, calls } = recorded(model.search)
  const warmed = await warmQueries(spy, model.registry, { budgetMs: 60_000, minDocuments: DATASETS })
  assert.is(warmed.types, 1, 'datasets only: no other type has as many documents')
  const asked = calls.filter((c) => !(c.method === 'search' && c.req.input === '*' && c.req.count === 100))
  assert.is(asked.length, warmed.queries)
  assert.ok(asked.every((c) => c.req.entity.name === 'dataset'), 'only the warmed type is asked')
  assert.equal(asked.filter((c) => !c.ok).map((c) => JSON.stringify({ ...c.req, entity: c.req.entity.name })), [], 'every query answered')
  const inputs = asked.filter((c) => c.method === 'search').map((c) => c.req)
  const conditions = new Set(inputs.flatMap((r) => (r.filter?.or ?? []).flatMap((g: any) => g.and.map((c: any) => c.condition))))
  assert.equal([...conditions].sort(), ['CONTAIN', 'END_WITH', 'EQUAL', 'GREATER_THAN', 'START_WITH'])
  assert.ok(inputs.some((r) => WORDS.includes(r.input) && r.start === 0), 'a word')
  assert.ok(inputs.some((r) => /^[a-z]+ [a-z]+$/.test(r.input)), 'two words')
  assert.ok(inputs.some((r) => /^[a-z]{3}\*$/.test(r.input)), 'a prefix')
  assert.ok(inputs.some((r) => /^tags:/.test(r.input)), 'field:value')
  assert.ok(inputs.some((r) => r.start > 0), 'a deeper page')
  assert.ok(calls.some((c) => c.method === 'autocomplete'), 'autocomplete')
  assert.equal(await snapshotStore(model.redis, svc.config.keyPrefix), before, 'nothing written')
})

test('the budget and the documents a type needs bound it', async () => {
  const { model } = svc.gateway
  assert.equal((({ ms, ...rest }) => rest)(await warmQueries(model.search, model.registry, { budgetMs: 0, minDocuments: 1 })), { types: 0, queries: 0 })
  const few = await warmQueries(model.search, model.registry, { budgetMs: 60_000, minDocuments: DATASETS + 1 })
  assert.is(few.types, 0)
  assert.is(few.queries, 0)
  const cut = await warmQueries(model.search, model.registry, { budgetMs: 1, minDocuments: 1 })
  assert.ok(cut.queries <= 1 && cut.ms < 5_000, `cut at its budget: ${JSON.stringify(cut)}`)
})

test('a gateway that warms up reports ready once it has', async () => {
  const config = { ...svc.config, searchWarmUpMs: 60_000, nativeTallyMin: DATASETS }
  const gateway = await startGateway(config, createLogger('silent', 'test'))
  try {
    await gateway.warmed
    const ready = await httpCall(gateway.url, 'GET', '/ready')
    assert.is(ready.status, 200, JSON.stringify(ready.body))
  } finally {
    await gateway.close()
  }
})

test.run()
