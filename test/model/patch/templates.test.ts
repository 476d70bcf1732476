/**
 * PATCH of an absent aspect starts from upstream's template for it (model/patch/templates.ts): one test per templated
 * aspect, each a patch as upstream's patch builders write it, whose result must match the aspect's schema.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parsePatchDocument, patchValue } from '../../../model/patch/patchAspect.ts'
import { TEMPLATED_ASPECTS, templateOf } from '../../../model/patch/templates.ts'
import { buildRegistry } from '../../../model/registry.ts'
import { problems } from '../../../model/validate.ts'

const registry = buildRegistry()
const schemaOf = (aspect: string) => registry.findAspect(aspect)!.schema
const patch = (aspect: string, ops: unknown[]): any => patchValue(aspect, schemaOf(aspect), undefined, parsePatchDocument(ops, 'patch'))
const add = (path: string, value: unknown) => ({ op: 'add', path, value })

const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const job = 'urn:svc:dataJob:(urn:svc:dataFlow:(airflow,flow,prod),task)'
const chart = 'urn:svc:chart:(looker,c1)'
const edge = (urn: string) => ({ destinationUrn: urn })
const stamp = { time: 1, actor: 'urn:svc:corpuser:a' }

/** Per templated aspect: the operations (as upstream's builders send them) and the value they must come to. */
const CASES: Record<string, { ops: unknown[]; expected: unknown }> = {
  globalTags: { ops: [add('/tags/urn:svc:tag:t', { tag: 'urn:svc:tag:t' })], expected: { tags: [{ tag: 'urn:svc:tag:t' }] } },
  glossaryTerms: { ops: [add('/terms/urn:svc:glossaryTerm:g', { urn: 'urn:svc:glossaryTerm:g' })], expected: { terms: [{ urn: 'urn:svc:glossaryTerm:g' }] } },
  ownership: { ops: [add('/owners/urn:svc:corpuser:a/DATAOWNER', { owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' })], expected: { owners: [{ owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' }] } },
  institutionalMemory: { ops: [add('/elements/https:~1~1wiki', { url: 'https://wiki', description: 'd', createStamp: stamp })], expected: { elements: [{ url: 'https://wiki', description: 'd', createStamp: stamp }] } },
  structuredProperties: {
    ops: [add('/properties/urn:svc:structuredProperty:p', { propertyUrn: 'urn:svc:structuredProperty:p', values: [{ string: 'x' }] })],
    expected: { properties: [{ propertyUrn: 'urn:svc:structuredProperty:p', values: [{ string: 'x' }] }] },
  },
  siblings: { ops: [add(`/siblings/${ds('s')}`, ds('s'))], expected: { siblings: [ds('s')], primary: false } },
  domains: { ops: [add('/domains/urn:svc:domain:d', 'urn:svc:domain:d')], expected: { domains: ['urn:svc:domain:d'] } },
  status: { ops: [add('/removed', true)], expected: { removed: true } },
  datasetProperties: { ops: [add('/customProperties/k', 'v'), add('/tags/t1', 't1'), add('/description', 'd')], expected: { customProperties: { k: 'v' }, tags: ['t1'], description: 'd' } },
  editableDatasetProperties: { ops: [add('/description', 'd')], expected: { description: 'd' } },
  editableSchemaMetadata: {
    ops: [add('/editableSchemaFieldInfo/col/globalTags/tags/urn:svc:tag:t', { tag: 'urn:svc:tag:t' })],
    expected: { editableSchemaFieldInfo: [{ fieldPath: 'col', globalTags: { tags: [{ tag: 'urn:svc:tag:t' }] } }] },
  },
  upstreamLineage: { ops: [add(`/upstreams/${ds('u')}`, { dataset: ds('u'), type: 'TRANSFORMED' })], expected: { upstreams: [{ dataset: ds('u'), type: 'TRANSFORMED' }] } },
  dataFlowInfo: { ops: [add('/name', 'flow'), add('/customProperties/k', 'v')], expected: { name: 'flow', customProperties: { k: 'v' } } },
  dataJobInfo: { ops: [add('/name', 'job'), add('/type', { string: 'COMMAND' }), add('/customProperties/k', 'v')], expected: { name: 'job', type: { string: 'COMMAND' }, customProperties: { k: 'v' } } },
  dataJobInputOutput: {
    ops: [add(`/inputDatajobEdges/${job}`, edge(job)), add(`/inputDatasetEdges/${ds('in')}`, edge(ds('in'))), add(`/outputDatasetEdges/${ds('out')}`, edge(ds('out')))],
    expected: { inputDatasets: [], outputDatasets: [], inputDatajobEdges: [edge(job)], inputDatasetEdges: [edge(ds('in'))], outputDatasetEdges: [edge(ds('out'))] },
  },
  dataProcessInstanceInput: { ops: [add(`/inputEdges/${ds('in')}`, edge(ds('in')))], expected: { inputs: [], inputEdges: [edge(ds('in'))] } },
  dataProcessInstanceOutput: { ops: [add(`/outputEdges/${ds('out')}`, edge(ds('out')))], expected: { outputs: [], outputEdges: [edge(ds('out'))] } },
  chartInfo: { ops: [add(`/inputEdges/${ds('in')}`, edge(ds('in')))], expected: { title: '', description: '', lastModified: {}, inputEdges: [edge(ds('in'))] } },
  dashboardInfo: {
    ops: [add(`/chartEdges/${chart}`, edge(chart)), add(`/datasetEdges/${ds('d')}`, edge(ds('d')))],
    expected: { title: '', description: '', lastModified: {}, chartEdges: [edge(chart)], datasetEdges: [edge(ds('d'))] },
  },
  dataProductProperties: { ops: [add(`/assets/${ds('a')}`, edge(ds('a')))], expected: { assets: [edge(ds('a'))] } },
  glossaryTermInfo: { ops: [add('/name', 'Term')], expected: { name: 'Term', definition: '', termSource: 'INTERNAL' } },
  glossaryNodeInfo: { ops: [add('/name', 'Node')], expected: { name: 'Node', definition: '' } },
  glossaryRelatedTerms: { ops: [add('/isRelatedTerms/urn:svc:glossaryTerm:g', 'urn:svc:glossaryTerm:g')], expected: { isRelatedTerms: ['urn:svc:glossaryTerm:g'] } },
  editableContainerProperties: { ops: [add('/description', 'd')], expected: { description: 'd' } },
  editableChartProperties: { ops: [add('/description', 'd')], expected: { description: 'd' } },
  editableDashboardProperties: { ops: [add('/description', 'd')], expected: { description: 'd' } },
  editableDataFlowProperties: { ops: [add('/description', 'd')], expected: { description: 'd' } },
  editableDataJobProperties: { ops: [add('/description', 'd')], expected: { description: 'd' } },
  testResults: { ops: [add('/passing/urn:svc:test:t', { test: 'urn:svc:test:t', type: 'SUCCESS' })], expected: { passing: [{ test: 'urn:svc:test:t', type: 'SUCCESS' }], failing: [] } },
  domainProperties: { ops: [add('/name', 'Finance')], expected: { name: 'Finance' } },
  propertyDefinition: {
    ops: [add('/qualifiedName', 'io.acme.retention'), add('/entityTypes/urn:svc:entityType:datahub.dataset', 'urn:svc:entityType:datahub.dataset')],
    expected: { qualifiedName: 'io.acme.retention', valueType: 'urn:svc:dataType:datahub.string', entityTypes: ['urn:svc:entityType:datahub.dataset'] },
  },
}

test('every template names a modelled aspect and has a case here', () => {
  for (const aspect of TEMPLATED_ASPECTS) {
    assert.ok(registry.findAspect(aspect), `${aspect} is modelled`)
    assert.ok(CASES[aspect], `${aspect} has a case`)
  }
})

for (const aspect of TEMPLATED_ASPECTS) {
  test(`${aspect}: a patch of the absent aspect applies to its template`, () => {
    const { ops, expected } = CASES[aspect]!
    const out = patch(aspect, ops)
    assert.equal(problems(schemaOf(aspect), out), [], `${aspect} matches its schema`)
    assert.equal(out, expected)
  })
}

test('a template holds every array its patch builders address, empty (dataJobInputOutput as upstream)', () => {
  const start = templateOf('dataJobInputOutput', schemaOf('dataJobInputOutput')) as Record<string, unknown>
  for (const field of ['inputDatasets', 'outputDatasets', 'inputDatasetEdges', 'outputDatasetEdges', 'inputDatajobEdges', 'inputDatasetFields', 'outputDatasetFields', 'fineGrainedLineages']) {
    assert.equal(start[field], [], field)
  }
})

test('edges are addressed by destination urn on existing aspects too: add keeps the others, remove drops one', () => {
  const current = { inputDatasets: [], outputDatasets: [], inputDatasetEdges: [edge(ds('a')), edge(ds('b'))] }
  const schema = schemaOf('dataJobInputOutput')
  const added = patchValue('dataJobInputOutput', schema, current, parsePatchDocument([add(`/inputDatasetEdges/${ds('c')}`, edge(ds('c')))], 'patch')) as any
  assert.equal(added.inputDatasetEdges, [edge(ds('a')), edge(ds('b')), edge(ds('c'))])
  const removed = patchValue('dataJobInputOutput', schema, current, parsePatchDocument([{ op: 'remove', path: `/inputDatasetEdges/${ds('a')}` }], 'patch')) as any
  assert.equal(removed.inputDatasetEdges, [edge(ds('b'))])
})

test('a template\'s urns are in the deployment\'s namespace', () => {
  const out = patchValue('propertyDefinition', schemaOf('propertyDefinition'), undefined, parsePatchDocument([add('/qualifiedName', 'q')], 'patch'), 'urn:li:') as any
  assert.is(out.valueType, 'urn:li:dataType:datahub.string')
})

test('an aspect without a template starts from its schema\'s empty value', () => {
  assert.equal(patch('subTypes', [add('/typeNames/View', 'View')]), { typeNames: ['View'] })
})

test.run()
