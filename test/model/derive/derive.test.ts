import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { browseEntries, groupsOf, normalizePath } from '../../../model/derive/browse.ts'
import { diffEdges, edgesOf } from '../../../model/derive/edges.ts'
import { fillTemplate } from '../../../model/derive/firstWrite.ts'
import { searchDocument } from '../../../model/derive/searchDocument.ts'
import { tokenize } from '../../../model/derive/tokenize.ts'
import { buildRegistry } from '../../../model/registry.ts'

const registry = buildRegistry()
const dataset = registry.entity('dataset')
const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hdfs,SampleHdfsDataset,PROD)'

test('tokenize splits on punctuation and camelCase, lower-cased', () => {
  assert.equal(tokenize('SampleHdfsDataset'), ['sample', 'hdfs', 'dataset'])
  assert.equal(tokenize('urn:svc:chart:(looker,baz1)'), ['urn', 'svc', 'chart', 'looker', 'baz1'])
  assert.equal(tokenize('shipment_info.geo_info/lat'), ['shipment', 'info', 'geo', 'info', 'lat'])
  assert.equal(tokenize('HDFSDataset'), ['hdfs', 'dataset'])
})

test('default path templates', () => {
  assert.equal(fillTemplate({ paths: ['/{origin}/{platform:id}/{name:path}'] }, { origin: 'PROD', platform: 'urn:svc:dataPlatform:Hive', name: 'a.B' }, true), { paths: ['/prod/hive/a/b'] })
})

test('the search document gathers annotated values; a soft-deleted entity has none', () => {
  const aspects = new Map<string, unknown>([
    ['datasetKey', { platform: 'urn:svc:dataPlatform:hdfs', name: 'SampleHdfsDataset', origin: 'PROD' }],
    ['ownership', { owners: [{ owner: 'urn:svc:corpuser:jdoe', type: 'DATAOWNER' }] }],
    ['globalTags', { tags: [{ tag: 'urn:svc:tag:Legacy' }] }],
  ])
  const doc = searchDocument(registry, dataset, urn, aspects)!
  assert.equal(doc.fields.name, ['SampleHdfsDataset'])
  assert.equal(doc.fields.platform, ['urn:svc:dataPlatform:hdfs'])
  assert.equal(doc.fields.owners, ['urn:svc:corpuser:jdoe'])
  assert.equal(doc.fields.tags, ['urn:svc:tag:Legacy'])
  assert.equal(doc.fields.urn, [urn])
  aspects.set('status', { removed: true })
  assert.is(searchDocument(registry, dataset, urn, aspects), null)
})

test('edges come from relationship annotations and diff cleanly', () => {
  const before = edgesOf(registry, dataset, urn, new Map<string, unknown>([['ownership', { owners: [{ owner: 'urn:svc:corpuser:a' }, { owner: 'urn:svc:corpuser:b' }] }]]))
  const after = edgesOf(registry, dataset, urn, new Map<string, unknown>([
    ['ownership', { owners: [{ owner: 'urn:svc:corpuser:b' }] }],
    ['upstreamLineage', { upstreams: [{ dataset: 'urn:svc:dataset:(urn:svc:dataPlatform:kafka,K,PROD)', type: 'TRANSFORMED' }] }],
  ]))
  const { added, removed } = diffEdges(before, after)
  assert.equal(removed, [{ type: 'OwnedBy', target: 'urn:svc:corpuser:a' }])
  assert.equal(added, [{ type: 'DownstreamOf', target: 'urn:svc:dataset:(urn:svc:dataPlatform:kafka,K,PROD)' }])
})

test('browse entries: listed in the parent folder; groups come from the folders below', () => {
  const { listed } = browseEntries(['/prod/hdfs/SampleHdfsDataset', '/top'])
  assert.equal([...listed], [['/prod/hdfs', 'SampleHdfsDataset'], ['', 'top']])
  assert.equal([...groupsOf('', ['/prod/hdfs', '/prod/hive', '/dev/x'])], [['prod', ['/prod/hdfs', '/prod/hive']], ['dev', ['/dev/x']]])
  assert.equal([...groupsOf('/prod', ['/prod/hdfs', '/prod/hive/db1'])], [['hdfs', ['/prod/hdfs']], ['hive', ['/prod/hive/db1']]])
  assert.is(normalizePath('/looker/'), '/looker')
  assert.is(normalizePath('/'), '')
})

test.run()
