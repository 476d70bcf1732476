/** Which fields of a hit matched (model/search/matches.ts), pure: against tokenizing every value, as it was written. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { tokenize } from '../../../model/derive/tokenize.ts'
import { matchedFields } from '../../../model/search/matches.ts'
import type { SearchField } from '../../../model/registry.ts'
import type { QueryWord } from '../../../model/search/native/wordQuery.ts'

const field = (name: string, queryByDefault = true): [string, SearchField] =>
  [name, { name, type: 'TEXT', boost: 1, queryByDefault, autocomplete: false, facet: false, many: false, unique: false }]
const fields = new Map([field('name'), field('description'), field('platform', false), field('urn')])

/** Every value tokenized (the function before values without any query word were skipped unread). */
function byTokens(words: readonly QueryWord[], doc: Record<string, string[]>): { name: string; value: string }[] {
  const hits = (value: string) => tokenize(value).some((t) => words.some((w) => (w.prefix ? t.startsWith(w.token) : t === w.token)))
  const found = Object.entries(doc).filter(([name]) => name !== 'urn' && fields.get(name)?.queryByDefault)
    .flatMap(([name, values]) => values.filter(hits).map((value) => ({ name, value })))
  return found.length > 0 || !(doc.urn ?? []).some(hits) ? found : [{ name: 'urn', value: doc.urn![0]! }]
}

const doc = {
  urn: ['urn:svc:dataset:(urn:svc:dataPlatform:hive,SalesOrders,PROD)'],
  name: ['SampleHdfsDataset', 'ΣΣσ Über_straße'],
  description: ['Orders of the EMEA region, daily', 'naïve façade ΟΔΟΣ'],
  platform: ['hive'],
}

test('the fields holding a query word, as tokenizing every value finds them (camelCase, prefixes, any script)', () => {
  const queries: QueryWord[][] = [
    [{ token: 'hdfs', prefix: false }], [{ token: 'sample', prefix: false }], [{ token: 'hd', prefix: true }],
    [{ token: 'orders', prefix: false }], [{ token: 'emea', prefix: false }], [{ token: 'region', prefix: true }],
    [{ token: 'über', prefix: false }], [{ token: 'straße', prefix: false }], [{ token: 'σς', prefix: false }],
    [{ token: 'naïve', prefix: false }], [{ token: 'οδος', prefix: false }], [{ token: 'οδοσ', prefix: false }],
    [{ token: 'hive', prefix: false }], [{ token: 'salesorders', prefix: false }], [{ token: 'sales', prefix: false }],
    [{ token: 'nothing', prefix: false }, { token: 'daily', prefix: false }], [{ token: 'set', prefix: true }],
  ]
  for (const words of queries) {
    assert.equal(matchedFields({ kind: 'words', words: [...words] }, fields, doc), byTokens(words, doc), JSON.stringify(words))
  }
})

test('a word found only in the urn reports the urn', () => {
  assert.equal(matchedFields({ kind: 'words', words: [{ token: 'sales', prefix: false }] }, fields, doc), [{ name: 'urn', value: doc.urn[0] }])
})

test.run()
