/** Configuration from the environment (model/config.ts): the facet values a search answer shows. */
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

test.run()
