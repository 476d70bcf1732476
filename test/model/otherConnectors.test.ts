/**
 * Records in the shape other upstream connectors emit (MLflow training runs and model versions, Power BI charts and
 * browse paths, stateful-ingestion checkpoints), beyond the copied golden files: accepted as proposals.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseProposal } from '../../model/proposal.ts'
import { buildRegistry } from '../../model/registry.ts'
import { unitsOf } from '../../ops/cli/records.ts'

const registry = buildRegistry()
const model = 'urn:svc:mlModel:(urn:svc:dataPlatform:mlflow,test-model_1,PROD)'
const group = 'urn:svc:mlModelGroup:(urn:svc:dataPlatform:mlflow,test-model,PROD)'
const run = 'urn:svc:dataProcessInstance:2666299269d6ebea994d5ec0c29e3aca'
const attribution = { time: 1615443388097, actor: 'urn:svc:corpuser:datahub', sourceDetail: {} }
const mcp = (entityUrn: string, aspectName: string, json: unknown) =>
  ({ entityType: entityUrn.split(':')[2], entityUrn, changeType: 'UPSERT', aspectName, aspect: { json } })

const records = [
  mcp(group, 'mlModelGroupProperties', { customProperties: { model_env: 'test' }, description: 'd', created: { time: 1 }, lastModified: { time: 1 }, version: { versionTag: '1', metadataAttribution: attribution } }),
  mcp(run, 'mlTrainingRunProperties', { customProperties: {}, id: '0266', outputUrls: ['/artifacts'], hyperParams: [{ name: 'p', value: '1' }], trainingMetrics: [{ name: 'm', value: '0.85' }] }),
  mcp(run, 'dataProcessInstanceProperties', { customProperties: {}, name: 'test-run', created: { time: 1, actor: 'urn:svc:platformResource:unknown' } }),
  mcp(run, 'dataProcessInstanceOutput', { outputs: [], outputEdges: [{ destinationUrn: model }] }),
  mcp(run, 'dataProcessInstanceRunEvent', { timestampMillis: 1, status: 'COMPLETE', result: { type: 'SUCCESS', nativeResultType: 'mlflow' }, durationMillis: 5 }),
  mcp(model, 'mlModelProperties', { customProperties: { v: '1' }, trainingJobs: [run], created: { time: 1 }, lastModified: { time: 1 }, hyperParams: [{ name: 'p', value: '1' }], trainingMetrics: [{ name: 'm', value: '0.85' }], tags: ['v:1'], groups: [group] }),
  mcp(model, 'versionProperties', { versionSet: 'urn:svc:versionSet:(658730e7177b283e4f94410fe4b41519,mlModel)', version: { versionTag: '1', metadataAttribution: attribution }, aliases: [], sortId: '0000000001', versioningScheme: 'LEXICOGRAPHIC_STRING' }),
  mcp('urn:svc:platformResource:1bbe', 'platformResourceInfo', { resourceType: 'user', primaryKey: 'unknown' }),
  mcp('urn:svc:chart:(powerbi,charts.B8E2)', 'chartInfo', { customProperties: {}, title: 't', description: 't', lastModified: { created: { time: 0, actor: 'urn:svc:corpuser:unknown' }, lastModified: { time: 0, actor: 'urn:svc:corpuser:unknown' } }, inputs: [{ string: 'urn:svc:dataset:(urn:svc:dataPlatform:powerbi,library-dataset.t,DEV)' }] }),
  mcp('urn:svc:dataset:(urn:svc:dataPlatform:powerbi,library-dataset.t,DEV)', 'browsePathsV2', { path: [{ id: 'demo-workspace', urn: 'urn:svc:container:a4ed' }, { id: 'library-dataset' }] }),
  mcp('urn:svc:dashboard:(powerbi,dashboards.7D66)', 'dashboardUsageStatistics', { timestampMillis: 1, eventGranularity: { unit: 'DAY', multiple: 1 }, viewsCount: 3, uniqueUserCount: 1, userCounts: [{ user: 'urn:svc:corpuser:a', viewsCount: 3 }] }),
  mcp('urn:svc:dataJob:(urn:svc:dataFlow:(datahub,mysql_pipeline,prod),mysql_source)', 'datahubIngestionCheckpoint', { timestampMillis: 1, pipelineName: 'p', platformInstanceId: 'mysql_source', config: '', state: { formatVersion: '1.0', serde: 'base85-bz2-json', payload: 'x' }, runId: 'r' }),
]

test('records of other connectors are accepted as sent', () => {
  const { units, rejected } = unitsOf(registry, 'other', records)
  assert.equal(rejected, [])
  for (const unit of units) {
    for (const p of unit.proposals as { aspectName: string; aspect: { value: string } }[]) {
      const item = parseProposal(registry, p)
      assert.is(item.op, 'upsert', p.aspectName)
      if (item.op === 'upsert') assert.equal(item.aspects[0]!.value, JSON.parse(p.aspect.value), p.aspectName)
    }
  }
})

test.run()
