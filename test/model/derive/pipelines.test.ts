/** Pure derivations for the entity types of real connector output: job edges, column edges, browse paths, defaults. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { edgesOf, fieldEdgesOf } from '../../../model/derive/edges.ts'
import { firstWriteAspects } from '../../../model/derive/firstWrite.ts'
import { joinedPath, searchDocument } from '../../../model/derive/searchDocument.ts'
import { buildRegistry } from '../../../model/registry.ts'
import { parseUrn } from '../../../model/urn.ts'

const registry = buildRegistry()
const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const field = (dataset: string, path: string) => `urn:svc:schemaField:(${dataset},${path})`
const flow = 'urn:svc:dataFlow:(airflow,Daily_Load,PROD)'
const job = `urn:svc:dataJob:(${flow},load_orders)`

test('a job\'s inputs are Consumes edges, outputs Produces edges, input jobs DownstreamOf edges', () => {
  const io = {
    inputDatasets: [ds('raw')], outputDatasets: [ds('clean')], inputDatajobs: [`urn:svc:dataJob:(${flow},extract)`],
    inputDatasetEdges: [{ destinationUrn: ds('lookup') }],
  }
  const edges = edgesOf(registry, registry.entity('dataJob'), job, new Map([['dataJobInputOutput', io]]))
  assert.equal(edges.map((e) => `${e.type} ${e.target}`).sort(), [
    `Consumes ${ds('lookup')}`, `Consumes ${ds('raw')}`, `DownstreamOf urn:svc:dataJob:(${flow},extract)`, `Produces ${ds('clean')}`,
  ])
})

test('fine-grained lineage gives column edges (downstream field DownstreamOf each upstream field), not entity edges', () => {
  const lineage = {
    upstreams: [{ dataset: ds('raw'), type: 'TRANSFORMED' }],
    fineGrainedLineages: [{
      upstreamType: 'FIELD_SET', upstreams: [field(ds('raw'), 'a'), field(ds('raw'), 'b')],
      downstreamType: 'FIELD', downstreams: [field(ds('clean'), 'ab')],
    }],
  }
  const aspects = new Map([['upstreamLineage', lineage]])
  assert.equal(edgesOf(registry, registry.entity('dataset'), ds('clean'), aspects), [{ type: 'DownstreamOf', target: ds('raw') }])
  assert.equal(fieldEdgesOf(registry, registry.entity('dataset'), aspects), [
    { source: field(ds('clean'), 'ab'), type: 'DownstreamOf', target: field(ds('raw'), 'a') },
    { source: field(ds('clean'), 'ab'), type: 'DownstreamOf', target: field(ds('raw'), 'b') },
  ])
  const jobAspects = new Map([['dataJobInputOutput', { inputDatasets: [], outputDatasets: [], fineGrainedLineages: lineage.fineGrainedLineages }]])
  assert.is(fieldEdgesOf(registry, registry.entity('dataJob'), jobAspects).length, 2)
})

test('lineage relationships and their direction come from annotations', () => {
  assert.ok(registry.lineage.upstream.includes('DownstreamOf'))
  assert.ok(registry.lineage.upstream.includes('Consumes'))
  assert.ok(registry.lineage.downstream.includes('Produces'))
  assert.not.ok(registry.lineage.upstream.includes('OwnedBy'))
})

test('browsePathsV2 becomes one browsePaths value ending with the entity urn; an empty path none', () => {
  const container = 'urn:svc:container:abc'
  const chart = 'urn:svc:chart:(looker,1)'
  const keys = ['urn', 'id']
  assert.is(joinedPath([{ id: 'Folders' }, { id: container, urn: container }], keys, chart), `/Folders/${container}/${chart}`)
  assert.is(joinedPath([{ id: 'workspace', urn: container }, { id: 'library' }], keys, chart), `/${container}/library/${chart}`)
  assert.is(joinedPath([{ id: 'a/b' }], keys, chart), `/a%2Fb/${chart}`)
  assert.is(joinedPath([], keys, chart), undefined)
  const doc = searchDocument(registry, registry.entity('chart'), chart, new Map<string, unknown>([
    ['chartKey', { dashboardTool: 'looker', chartId: '1' }],
    ['browsePaths', { paths: ['/looker/1'] }],
    ['browsePathsV2', { path: [{ id: 'Folders' }] }],
    ['container', { container }],
    ['subTypes', { typeNames: ['Look'] }],
  ]))!
  assert.equal(doc.fields.browsePaths, ['/looker/1', `/Folders/${chart}`])
  assert.equal(doc.fields.container, [container])
  assert.equal(doc.fields.typeNames, ['Look'])
})

test('default browse paths and platform of jobs, flows and ML assets', () => {
  const defaults = (urn: string) => Object.fromEntries(firstWriteAspects(parseUrn(registry, urn), new Set()).map((a) => [a.name, a.value]))
  const jobDefaults = defaults(job)
  assert.equal(jobDefaults.browsePaths, { paths: ['/airflow/prod/daily_load/load_orders'] })
  assert.equal(jobDefaults.dataPlatformInstance, { platform: 'urn:svc:dataPlatform:airflow' })
  assert.equal(defaults(flow).browsePaths, { paths: ['/airflow/prod/daily_load'] })
  const model = defaults('urn:svc:mlModel:(urn:svc:dataPlatform:sagemaker,churn,PROD)')
  assert.equal(model.browsePaths, { paths: ['/prod/sagemaker/churn'] })
  assert.equal(model.dataPlatformInstance, { platform: 'urn:svc:dataPlatform:sagemaker' })
  assert.equal(defaults('urn:svc:container:abc'), { containerKey: { guid: 'abc' } })
})

test('search documents of the new types carry names, platform and container', () => {
  const doc = searchDocument(registry, registry.entity('dataJob'), job, new Map<string, unknown>([
    ['dataJobKey', { flow, jobId: 'load_orders' }],
    ['dataJobInfo', { name: 'Load orders', type: { string: 'SQL' } }],
    ['dataPlatformInstance', { platform: 'urn:svc:dataPlatform:airflow' }],
    ['dataJobInputOutput', { inputDatasets: [ds('raw')], outputDatasets: [ds('clean')] }],
  ]))!
  assert.equal(doc.fields.name, ['load_orders', 'Load orders'])
  assert.equal(doc.fields.platform, ['urn:svc:dataPlatform:airflow'])
  assert.equal(doc.fields.inputs, [ds('raw')])
  assert.equal(doc.fields.outputs, [ds('clean')])
})

test.run()
