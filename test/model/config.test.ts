/** Configuration from the environment (model/config.ts): the facet values a search answer shows; the embedded Redis's append-only file and priority; the search module's collector. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { loadConfig, type Config } from '../../model/config.ts'

/**
 * An integer variable: unset, it reads as `fallback`; each of `accepted` reads as its number; each of `refused` is a
 * configuration error that names the variable.
 */
function checkInteger(variable: string, field: keyof Config, fallback: number, accepted: string[], refused: string[]): void {
  assert.is(loadConfig({})[field], fallback)
  for (const value of accepted) assert.is(loadConfig({ [variable]: value })[field], Number(value), value)
  for (const wrong of refused) assert.throws(() => loadConfig({ [variable]: wrong }), new RegExp(variable), wrong)
}

test('a search answer shows 20 values a facet unless SEARCH_FACET_VALUES says otherwise (1 to 1,000)', () => {
  checkInteger('SEARCH_FACET_VALUES', 'facetValues', 20, ['200'], ['0', '1001', 'many', '-5'])
})

test('the embedded Redis rewrites its append-only file at 400% growth unless AOF_REWRITE_PERCENTAGE says otherwise', () => {
  checkInteger('AOF_REWRITE_PERCENTAGE', 'aofRewritePercentage', 400, ['100', '0'], ['-1', 'often', '1.5'])
})

test('the embedded Redis asks for priority -10 unless EMBEDDED_REDIS_NICE says otherwise (-20 to 19)', () => {
  checkInteger('EMBEDDED_REDIS_NICE', 'embeddedRedisNice', -10, ['0', '-20', '19', '5'], ['-21', '20', 'high', '1.5'])
})

test('the redisearch engine has the module collect garbage every 300 s unless REDISEARCH_GC_INTERVAL says otherwise', () => {
  checkInteger('REDISEARCH_GC_INTERVAL', 'redisearchGcInterval', 300, ['30', '0'], ['-1', 'rarely', '2.5'])
})

test.run()
