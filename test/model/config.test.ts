/** Configuration from the environment (model/config.ts): the facet values a search answer shows; the embedded Redis's append-only file; the search module's collector. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { loadConfig } from '../../model/config.ts'

test('a search answer shows 20 values a facet unless SEARCH_FACET_VALUES says otherwise (1 to 1,000)', () => {
  assert.is(loadConfig({}).facetValues, 20)
  assert.is(loadConfig({ SEARCH_FACET_VALUES: '200' }).facetValues, 200)
  for (const wrong of ['0', '1001', 'many', '-5']) {
    assert.throws(() => loadConfig({ SEARCH_FACET_VALUES: wrong }), /SEARCH_FACET_VALUES/, wrong)
  }
})

test('the embedded Redis rewrites its append-only file at 400% growth unless AOF_REWRITE_PERCENTAGE says otherwise', () => {
  assert.is(loadConfig({}).aofRewritePercentage, 400)
  assert.is(loadConfig({ AOF_REWRITE_PERCENTAGE: '100' }).aofRewritePercentage, 100)
  assert.is(loadConfig({ AOF_REWRITE_PERCENTAGE: '0' }).aofRewritePercentage, 0)
  for (const wrong of ['-1', 'often', '1.5']) {
    assert.throws(() => loadConfig({ AOF_REWRITE_PERCENTAGE: wrong }), /AOF_REWRITE_PERCENTAGE/, wrong)
  }
})

test('the redisearch engine has the module collect garbage every 300 s unless REDISEARCH_GC_INTERVAL says otherwise', () => {
  assert.is(loadConfig({}).redisearchGcInterval, 300)
  assert.is(loadConfig({ REDISEARCH_GC_INTERVAL: '30' }).redisearchGcInterval, 30)
  assert.is(loadConfig({ REDISEARCH_GC_INTERVAL: '0' }).redisearchGcInterval, 0)
  for (const wrong of ['-1', 'rarely', '2.5']) {
    assert.throws(() => loadConfig({ REDISEARCH_GC_INTERVAL: wrong }), /REDISEARCH_GC_INTERVAL/, wrong)
  }
})

test.run()
