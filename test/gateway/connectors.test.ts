/**
 * Real connector outputs (upstream's golden files, test/fixtures/connectors/, renamed to this service's names) and
 * the demo catalogue, ingested through the real service: every record accepted (PATCH proposals wait on issue
 * #12), read back as sent, searchable by name, faceted, browsable, with lineage through jobs and across columns.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildRegistry } from '../../model/registry.ts'
import { unitsOf } from '../../ops/cli/records.ts'
import { startService, searchEngines, type TestService } from '../helpers/service.ts'

const DIR = new URL('../fixtures/connectors/', import.meta.url).pathname
const BOOTSTRAP = new URL('../fixtures/upstream/bootstrap_mce.json', import.meta.url).pathname
const FILES = [...readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => DIR + f), BOOTSTRAP]
const registry = buildRegistry()

/** Upstream's names to this service's: `urn:li:` -> `urn:svc:`, `com.linkedin.(pegasus2avro.)` -> `com.svc.`. */
const toSvc = (text: string) => text.replaceAll('urn:li:', 'urn:svc:').replace(/com\.linkedin\.(pegasus2avro\.)?/g, 'com.svc.')

interface Proposal { entityType: string; entityUrn: string; changeType: string; aspectName: string; aspect?: { value: string } }
interface Outcome { file: string; accepted: number; refused: number; patch: number; reasons: string[] }

/** Both search engines: native always, redisearch when a Redis with the search module is there. */
const engines = searchEngines('connector outputs')

const enc = encodeURIComponent
const ds = (platform: string, name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:${platform},${name},PROD)`
const field = (dataset: string, path: string) => `urn:svc:schemaField:(${dataset},${path})`

for (const engine of engines) {
  const t = suite<{ svc: TestService; outcomes: Outcome[]; sent: Map<string, Map<string, unknown>> }>(`connector outputs [${engine.name}]`)

  t.before(async (ctx) => {
    ctx.svc = await startService(engine.overrides)
    ctx.outcomes = []
    ctx.sent = new Map()
    for (const file of FILES) {
      const records = JSON.parse(toSvc(readFileSync(file, 'utf8'))) as unknown[]
      const outcome: Outcome = { file: file.split('/').pop()!, accepted: 0, refused: 0, patch: 0, reasons: [] }
      const { units, rejected } = unitsOf(registry, outcome.file, records)
      outcome.refused += rejected.length
      outcome.reasons.push(...rejected.map((r) => r.message))
      for (const unit of units) {
        const proposals = unit.proposals as Proposal[]
        const res = await ctx.svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals })
        const failed = (res.body.value?.results ?? [{ status: res.status, error: res.body }]).filter((r: { status: number }) => r.status !== 200)
        if (failed.length === 0) outcome.accepted++
        else if (proposals.some((p) => p.changeType === 'PATCH')) outcome.patch++
        else {
          outcome.refused++
          outcome.reasons.push(`${unit.source}: ${JSON.stringify(failed[0].error).slice(0, 300)}`)
        }
        for (const p of proposals) {
          if (p.changeType !== 'UPSERT' || !p.aspect || registry.findAspect(p.aspectName)?.timeseries) continue
          if (!ctx.sent.has(p.entityUrn)) ctx.sent.set(p.entityUrn, new Map())
          ctx.sent.get(p.entityUrn)!.set(p.aspectName, JSON.parse(p.aspect.value))
        }
      }
      ctx.outcomes.push(outcome)
    }
  })
  t.after(async (ctx) => { await ctx.svc.close() })

  t('every record is accepted, file by file (PATCH proposals too)', ({ outcomes }) => {
    for (const o of outcomes) assert.equal(o.reasons, [], o.file)
    assert.is(outcomes.reduce((n, o) => n + o.patch, 0), 0, 'no PATCH proposal refused (the dbt file has 4)')
    assert.is(outcomes.find((o) => o.file.startsWith('bootstrap'))!.accepted, 104)
  })

  t('round trip: entitiesV2 returns every aspect sent, as sent', async ({ svc, sent }) => {
    for (const [urn, aspects] of sent) {
      const res = await svc.call('GET', `/entitiesV2/${enc(urn)}`)
      assert.is(res.status, 200, urn)
      for (const [name, value] of aspects) assert.equal(res.body.aspects[name]?.value, value, `${urn} ${name}`)
    }
  })

  t('a versioned aspect written twice has two versions', async ({ svc }) => {
    const job = 'urn:svc:dataJob:(urn:svc:dataFlow:(airflow,sqlite_operator,prod),populate_cost_table)'
    const write = (description: string) => svc.call('POST', '/aspects?action=ingestProposal', { proposal: {
      entityType: 'dataJob', entityUrn: job, changeType: 'UPSERT', aspectName: 'editableDataJobProperties',
      aspect: { value: JSON.stringify({ description }), contentType: 'application/json' } } })
    assert.is((await write('first')).status, 200)
    assert.is((await write('second')).status, 200)
    const version = async (v: number) => (await svc.call('GET', `/aspects/${enc(job)}?aspect=editableDataJobProperties&version=${v}`)).body
    const description = (body: { aspect: Record<string, { description: string }> }) => Object.values(body.aspect)[0]!.description
    assert.is(description(await version(0)), 'second')
    assert.is(description(await version(1)), 'first')
  })

  const search = (svc: TestService, entity: string, input: string, extra: Record<string, unknown> = {}) =>
    svc.call('POST', '/entities?action=search', { input, entity, start: 0, count: 100, ...extra })
  const facet = (res: { body: any }, name: string) =>
    res.body.value.metadata.searchResultMetadatas.find((f: { name: string }) => f.name === name)?.aggregations as Record<string, number> | undefined

  t('search finds jobs, flows, containers, ML assets and glossary entries by name', async ({ svc }) => {
    const cases: [string, string, string][] = [
      ['dataFlow', 'sqlite_operator', 'urn:svc:dataFlow:(airflow,sqlite_operator,prod)'],
      ['dataJob', 'populate_cost_table', 'urn:svc:dataJob:(urn:svc:dataFlow:(airflow,sqlite_operator,prod),populate_cost_table)'],
      ['container', 'Shared', 'urn:svc:container:691314a7b63628684d62a14861d057a8'],
      ['mlModel', 'the-first-model', 'urn:svc:mlModel:(urn:svc:dataPlatform:sagemaker,the-first-model,PROD)'],
      ['mlFeature', 'some-feature-1', 'urn:svc:mlFeature:(test-2,some-feature-1)'],
      ['mlFeatureTable', 'test-2', 'urn:svc:mlFeatureTable:(urn:svc:dataPlatform:sagemaker,test-2)'],
      ['glossaryNode', 'Classification', 'urn:svc:glossaryNode:Classification'],
      ['chart', 'look', ''],
      ['dashboard', 'foo', ''],
    ]
    for (const [entity, input, urn] of cases) {
      const found = (await search(svc, entity, input)).body.value.entities as string[]
      assert.ok(found.length > 0, `${entity} "${input}"`)
      if (urn) assert.ok(found.includes(urn), `${entity} "${input}": ${found}`)
    }
  })

  t('facets by platform, container, subType, domain, tag and term count what was sent', async ({ svc, sent }) => {
    const datasets = [...sent].filter(([urn, a]) => urn.startsWith('urn:svc:dataset:') && !(a.get('status') as { removed?: boolean } | undefined)?.removed)
    const count = (pick: (aspects: Map<string, unknown>) => string[]) => {
      const counts: Record<string, number> = {}
      for (const [, aspects] of datasets) for (const v of new Set(pick(aspects))) counts[v] = (counts[v] ?? 0) + 1
      return counts
    }
    const res = await search(svc, 'dataset', '*')
    assert.equal(facet(res, 'typeNames'), count((a) => (a.get('subTypes') as { typeNames: string[] } | undefined)?.typeNames ?? []))
    assert.equal(facet(res, 'container'), count((a) => [(a.get('container') as { container: string } | undefined)?.container ?? ''].filter(Boolean)))
    assert.equal(facet(res, 'domains'), count((a) => (a.get('domains') as { domains: string[] } | undefined)?.domains ?? []))
    const tags = facet(res, 'tags')!
    assert.ok(tags['urn:svc:tag:Dimension'] === undefined || tags['urn:svc:tag:Dimension'] > 0)
    assert.ok(Object.keys(tags).length > 0)
    const platforms = facet(res, 'platform')!
    for (const p of ['kafka', 'mysql', 'looker', 'dbt', 'sqlite', 's3', 'hive']) assert.ok(platforms[p]! > 0, `platform ${p}: ${JSON.stringify(platforms)}`)
    const jobs = await search(svc, 'dataJob', '*')
    assert.equal(Object.keys(facet(jobs, 'platform')!).sort(), ['airflow', 'nifi', 'sagemaker'])
    const term = 'urn:svc:glossaryTerm:Classification.Confidential'
    for (const urn of [ds('kafka', 'key_topic'), ds('mysql', 'metagalaxy.metadata_index')]) {
      const value = { terms: [{ urn: term }], auditStamp: { time: 1, actor: 'urn:svc:corpuser:test' } }
      const proposal = { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'glossaryTerms', aspect: { value: JSON.stringify(value), contentType: 'application/json' } }
      assert.is((await svc.call('POST', '/aspects?action=ingestProposal', { proposal })).status, 200)
    }
    assert.equal(facet(await search(svc, 'dataset', '*'), 'glossaryTerms'), { [term]: 2, 'urn:svc:glossaryTerm:AccountBalance': 1 }, 'the two above and the csv-enricher file\'s')
  })

  t('lineage from a dataset crosses a job, both ways', async ({ svc }) => {
    const input = ds('s3', 'auto-ml-job-input-bucket/file_txt')
    const output = ds('s3', 'auto-ml-job-output-bucket/file_txt')
    const job = 'urn:svc:dataJob:(urn:svc:dataFlow:(sagemaker,auto_ml:an-auto-ml-job,PROD),arn:aws:sagemaker:us-west-2:123412341234:auto-ml-job/an-auto-ml-job)'
    const lineage = async (urn: string, direction: string) => (await svc.call('GET', `/lineage?urn=${enc(urn)}&direction=${direction}&maxHops=3`)).body.entities as { urn: string; hops: number }[]
    const down = await lineage(input, 'DOWNSTREAM')
    assert.ok(down.some((e) => e.urn === job && e.hops === 1), JSON.stringify(down))
    assert.ok(down.some((e) => e.urn === output && e.hops === 2), JSON.stringify(down))
    const up = await lineage(output, 'UPSTREAM')
    assert.ok(up.some((e) => e.urn === job && e.hops === 1), JSON.stringify(up))
    assert.ok(up.some((e) => e.urn === input && e.hops === 2), JSON.stringify(up))
    const rel = (await svc.call('GET', `/relationships?urn=${enc(job)}&direction=OUTGOING&types=Produces`)).body
    assert.equal(rel.entities, [output])
  })

  t('lineage of one column follows its fine-grained edges', async ({ svc }) => {
    const downstream = field(ds('dbt', 'pagila.public.customer_details'), 'customer_id')
    const upstream = field(ds('postgres', 'pagila.public.customer'), 'customer_id')
    const lineage = async (urn: string, direction: string) => ((await svc.call('GET', `/lineage?urn=${enc(urn)}&direction=${direction}&maxHops=1`)).body.entities as { urn: string }[]).map((e) => e.urn)
    assert.ok((await lineage(downstream, 'UPSTREAM')).includes(upstream))
    assert.ok((await lineage(upstream, 'DOWNSTREAM')).includes(downstream))
    const columns = await lineage(downstream, 'UPSTREAM')
    assert.ok(columns.every((u) => u.startsWith('urn:svc:schemaField:')), JSON.stringify(columns))
  })

  t('a container\'s members are browsable, and point at it with IsPartOf', async ({ svc }) => {
    const container = 'urn:svc:container:691314a7b63628684d62a14861d057a8'
    const members = (await svc.call('GET', `/relationships?urn=${enc(container)}&direction=INCOMING&types=IsPartOf`)).body.entities as string[]
    assert.ok(members.some((u) => u.startsWith('urn:svc:chart:')), JSON.stringify(members))
    const browse = await svc.call('POST', '/entities?action=browse', { path: `/Folders/${container}`, entity: 'chart', start: 0, limit: 10 })
    assert.is(browse.status, 200)
    const listed = (browse.body.value.entities as { urn: string }[]).map((e) => e.urn)
    assert.ok(listed.includes('urn:svc:chart:(looker,dashboard_elements.looks_1)'), JSON.stringify(browse.body.value))
    const root = await svc.call('POST', '/entities?action=browse', { path: '/Folders', entity: 'container', start: 0, limit: 10 })
    assert.ok((root.body.value.entities as { urn: string }[]).some((e) => e.urn === container), JSON.stringify(root.body.value))
  })

  t('run events of process instances and assertions answer through getTimeseriesAspectValues', async ({ svc }) => {
    const records = JSON.parse(toSvc(readFileSync(`${DIR}airflow__v2_sqlite_operator.json`, 'utf8'))) as Proposal[]
    const run = records.find((r) => r.aspectName === 'dataProcessInstanceRunEvent')!.entityUrn
    const res = await svc.call('POST', '/aspects?action=getTimeseriesAspectValues', { urn: run, entity: 'dataProcessInstance', aspect: 'dataProcessInstanceRunEvent' })
    assert.is(res.status, 200)
    const statuses = res.body.value.values.map((v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).status).sort()
    assert.equal(statuses, ['COMPLETE', 'STARTED'])
    const dbt = JSON.parse(toSvc(readFileSync(`${DIR}dbt__dbt_test_prefer_sql_parser_lineage_golden.json`, 'utf8'))) as Proposal[]
    const assertion = dbt.find((r) => r.aspectName === 'assertionRunEvent')!.entityUrn
    const events = await svc.call('POST', '/aspects?action=getTimeseriesAspectValues', { urn: assertion, entity: 'assertion', aspect: 'assertionRunEvent' })
    assert.ok(events.body.value.values.length > 0)
  })

  t.run()
}
