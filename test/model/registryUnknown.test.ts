/** The registry's forward-compatibility setting and the urn shapes of the new entity types. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CatalogError } from '../../model/errors.ts'
import { lineageHop, lineageSteps } from '../../model/services/lineage.ts'
import { buildRegistry } from '../../model/registry.ts'
import { parseUrn } from '../../model/urn.ts'

const refusing = buildRegistry()
const storing = buildRegistry({}, { unknownAspects: 'store' })
const code = (f: () => unknown): string => {
  try {
    f()
    return 'OK'
  } catch (err) {
    return (err as CatalogError).code
  }
}

test('an unknown aspect is refused by default and opaque with store; modelled aspects keep their entity types', () => {
  const dataset = refusing.entity('dataset')
  assert.is(code(() => refusing.aspectOf(dataset, 'shinyNewAspect')), 'UNKNOWN_ASPECT')
  const opaque = storing.aspectOf(storing.entity('dataset'), 'shinyNewAspect')
  assert.is(opaque.name, 'shinyNewAspect')
  assert.is(opaque.timeseries, false)
  assert.is(code(() => storing.aspectOf(storing.entity('dataset'), 'chartInfo')), 'UNKNOWN_ASPECT')
  assert.is(code(() => storing.aspectOf(storing.entity('dataset'), 'not a name')), 'UNKNOWN_ASPECT')
  assert.is(storing.aspectOfRecord(storing.entity('chart'), 'com.svc.chart.ChartFutureThing').name, 'chartFutureThing')
})

test('urn shapes of the new entity types', () => {
  const r = refusing
  assert.equal(parseUrn(r, 'urn:svc:dataJob:(urn:svc:dataFlow:(airflow,dag,PROD),task)').key, { flow: 'urn:svc:dataFlow:(airflow,dag,PROD)', jobId: 'task' })
  assert.equal(parseUrn(r, 'urn:svc:schemaField:(urn:svc:dataset:(urn:svc:dataPlatform:hive,t,PROD),a.b)').key,
    { parent: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,t,PROD)', fieldPath: 'a.b' })
  assert.equal(parseUrn(r, 'urn:svc:container:0f1e').key, { guid: '0f1e' })
  assert.equal(parseUrn(r, 'urn:svc:mlModel:(urn:svc:dataPlatform:sagemaker,m,PROD)').key, { platform: 'urn:svc:dataPlatform:sagemaker', name: 'm', origin: 'PROD' })
  assert.equal(parseUrn(r, 'urn:svc:mlFeature:(ns,f)').key, { featureNamespace: 'ns', name: 'f' })
  assert.is(code(() => parseUrn(r, 'urn:svc:dataJob:(urn:svc:dataset:(urn:svc:dataPlatform:hive,t,PROD),task)')), 'INVALID_URN')
  assert.is(code(() => parseUrn(r, 'urn:svc:mlModel:(urn:svc:dataPlatform:s,m,NOWHERE)')), 'INVALID_URN')
})

test('lineage steps: upstream-pointing relationships outwards, Produces inwards (and the reverse downstream)', () => {
  const up = lineageSteps(refusing, 'UPSTREAM')
  assert.is(up[0]!.direction, 'OUTGOING')
  assert.ok(up[0]!.types.includes('DownstreamOf') && up[0]!.types.includes('Consumes'))
  assert.equal(up[1], { direction: 'INCOMING', types: refusing.lineage.downstream as string[] })
  assert.equal(lineageSteps(refusing, 'DOWNSTREAM', ['DownstreamOf']), [{ direction: 'INCOMING', types: ['DownstreamOf'] }])
})

test('a column\'s lineage hop reads the fine-grained lineage of the job that writes its dataset', async () => {
  const ds = (n: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${n},PROD)`
  const col = (d: string, f: string) => `urn:svc:schemaField:(${d},${f})`
  const job = 'urn:svc:dataJob:(urn:svc:dataFlow:(airflow,dag,PROD),t)'
  const io = { inputDatasets: [ds('a')], outputDatasets: [ds('b')], fineGrainedLineages: [
    { upstreamType: 'FIELD_SET', upstreams: [col(ds('a'), 'x')], downstreamType: 'FIELD', downstreams: [col(ds('b'), 'y')] },
  ] }
  const reads = {
    // Only the job points at dataset b (Produces, read INCOMING when walking upstream).
    neighbours: async (urns: readonly string[], direction: string, types: readonly string[]) =>
      urns.map((u) => (u === ds('b') && direction === 'INCOMING' && types.includes('Produces') ? [job] : [])),
    latestValues: async (urns: readonly string[]) => urns.map((u) => new Map<string, unknown>(u === job ? [['dataJobInputOutput', io]] : [])),
  }
  assert.equal(await lineageHop(refusing, [col(ds('b'), 'y'), ds('b')], 'UPSTREAM', undefined, reads), [[col(ds('a'), 'x')], [job]])
})

test.run()
