/**
 * The upstream guide's examples (examples.json) and the bootstrap catalogue (bootstrap_mce.requests.json),
 * replayed against the service.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fixture } from '../helpers/fixtures.ts'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService }>('upstream examples')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

const examples = fixture('examples.json')
const bootstrap = fixture('bootstrap_mce.requests.json')
const byName = (prefix: string) => examples.find((e) => e.name.startsWith(prefix))!
const send = (svc: TestService, r: { method: string; path: string; body: unknown; headers?: Record<string, string> }) =>
  svc.call(r.method, r.path, r.body ?? undefined, r.headers ?? {})

/** Drops what differs between the old capture and our replay for reasons outside the service: times, defaults. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize)
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === 'time' || k === 'documentSchemaType') continue
    if ((k === 'isPartOfKey' || k === 'nullable' || k === 'recursive') && v === false) continue
    out[k] = normalize(v)
  }
  return out
}

t('every write example is accepted', async ({ svc }) => {
  for (const example of examples.filter((e) => e.method === 'POST' && /action=(ingest|ingestProposal)$/.test(e.path))) {
    const res = await send(svc, example)
    assert.is(res.status, 200, `${example.name}: ${JSON.stringify(res.body)}`)
    if (example.path.endsWith('ingestProposal')) assert.equal(res.body, { value: (example.body as any).proposal.entityUrn })
    else assert.equal(res.body, {})
  }
})

t('every bootstrap record is accepted, the entity types beyond the spec (jobs, flows, ML assets, containers ...) too', async ({ svc }) => {
  for (const record of bootstrap) {
    const res = await send(svc, record)
    assert.is(res.status, 200, `${record.name}: ${JSON.stringify(res.body)}`)
  }
})

t('entitiesV2 of SampleHdfsDataset matches the guide (example 12, ignoring created and times)', async ({ svc }) => {
  const example = byName('entitiesV2 get: SampleHdfsDataset')
  const res = await send(svc, example)
  assert.is(res.status, 200)
  const shown = example.shownResponse as { urn: string; entityName: string; aspects: Record<string, { name: string; version: number; value: unknown }> }
  assert.is(res.body.urn, shown.urn)
  assert.is(res.body.entityName, shown.entityName)
  for (const [name, aspect] of Object.entries(shown.aspects)) {
    const ours = res.body.aspects[name]
    assert.ok(ours, `aspect ${name} present`)
    assert.is(ours.name, aspect.name)
    assert.is(ours.version, 0)
    assert.equal(normalize(ours.value), normalize(aspect.value), name)
    assert.type(ours.created.time, 'number')
    assert.type(ours.created.actor, 'string')
  }
})

t('legacy reads: corpGroup dev, never-written dashboard, chart baz1', async ({ svc }) => {
  const group = byName('legacy entities get: corpGroup dev')
  assert.equal((await send(svc, group)).body, group.shownResponse)
  const dashboard = byName('legacy entities get: dashboard looker/foo')
  assert.equal((await send(svc, dashboard)).body, dashboard.shownResponse)
  const chart = byName('legacy entities get: chart looker/baz1')
  const res = await send(svc, chart)
  const aspects = res.body.value['com.svc.metadata.snapshot.ChartSnapshot'].aspects as Record<string, unknown>[]
  assert.equal(aspects[0], { 'com.svc.metadata.key.ChartKey': { dashboardTool: 'looker', chartId: 'baz1' } })
  assert.ok(aspects.some((a) => 'com.svc.common.BrowsePaths' in a))
})

t('legacy read of a glossary term carries its aspects directly too', async ({ svc }) => {
  const res = await svc.call('GET', `/entities/${encodeURIComponent('urn:svc:glossaryTerm:SavingAccount')}`)
  const snapshot = res.body.value['com.svc.metadata.snapshot.GlossaryTermSnapshot']
  assert.is(snapshot.urn, 'urn:svc:glossaryTerm:SavingAccount')
  assert.ok(snapshot.glossaryTermInfo.definition)
  assert.ok(snapshot.ownership.owners.length > 0)
  assert.equal(snapshot.aspects[0], { 'com.svc.metadata.key.GlossaryTermKey': { name: 'SavingAccount' } })
})

t('versioned aspect read of the guide (example 25)', async ({ svc }) => {
  const example = byName('versioned aspect get')
  assert.equal((await send(svc, example)).body, example.shownResponse)
})

t('derived examples: entitiesV2 limited to ownership, never-written dashboard', async ({ svc }) => {
  const limited = byName('derived: entitiesV2 get dataset foo/bar limited')
  const res = await send(svc, limited)
  assert.equal(Object.keys(res.body.aspects).sort(), ['datasetKey', 'ownership'])
  assert.equal(res.body.aspects.ownership.value, (limited.shownResponse as any).aspects.ownership.value)
  const never = byName('derived: entitiesV2 get of a never-written dashboard')
  const body = (await send(svc, never)).body
  assert.equal(body.aspects.dashboardKey.value, (never.shownResponse as any).aspects.dashboardKey.value)
  assert.is(body.aspects.dashboardKey.created.actor, 'urn:svc:corpuser:__svc_system')
})

t('repeated aspects parameters work like List()', async ({ svc }) => {
  const urn = encodeURIComponent('urn:svc:dataset:(urn:svc:dataPlatform:foo,bar,PROD)')
  const res = await svc.call('GET', `/entitiesV2/${urn}?aspects=ownership&aspects=globalTags&aspects=unknownOne`)
  assert.equal(Object.keys(res.body.aspects).sort(), ['datasetKey', 'globalTags', 'ownership'])
})

t('smoke: blank and missing systemMetadata; entitiesV2 batch get', async ({ svc }) => {
  const smoke = fixture('smoke.json')
  for (const r of smoke.filter((s) => s.method === 'POST' && s.path.endsWith('action=ingest'))) {
    assert.is((await send(svc, r)).status, 200, r.name)
  }
  for (const r of smoke.filter((s) => s.headers?.['X-Svc-Method'] === 'batch_get')) {
    const res = await send(svc, r)
    assert.is(res.status, 200)
    const [urn, entry] = Object.entries(res.body.results)[0] as [string, any]
    assert.ok(urn.includes('Dataset'))
    assert.ok('ownership' in entry.aspects)
  }
})

t('smoke: unknown fields are kept and reported (UNKNOWN_FIELDS=keep; drop mirrors upstream 2025); DELETE of the key aspect removes the entity', async ({ svc }) => {
  const smoke = fixture('smoke.json')
  const unknownField = smoke.find((s) => s.name.includes('unknown field'))!
  const written = await send(svc, unknownField)
  assert.is(written.status, 200)
  assert.equal(written.body.unknownFields, ['proposal.aspect.value/notAValidField'])
  const urn = (unknownField.body as any).proposal.entityUrn as string
  const info = (await svc.call('GET', `/aspects/${encodeURIComponent(urn)}?aspect=dashboardInfo&version=0`)).body.aspect['com.svc.dashboard.DashboardInfo']
  assert.is(info.title, 'Ignore Unknown Title')
  assert.is(info.notAValidField, 'invalid field value')
  const del = smoke.find((s) => s.name.includes('DELETE of the key aspect'))!
  const target = (del.body as any).proposal.entityUrn as string
  await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dashboard', entityUrn: target, changeType: 'UPSERT', aspectName: 'dashboardInfo', aspect: { value: '{"title":"t","description":"d","lastModified":{}}', contentType: 'application/json' } } })
  assert.is((await svc.call('GET', `/aspects/${encodeURIComponent(target)}?aspect=dashboardInfo&version=0`)).status, 200)
  assert.is((await send(svc, del)).status, 200)
  assert.is((await svc.call('GET', `/aspects/${encodeURIComponent(target)}?aspect=dashboardInfo&version=0`)).status, 404)
})

t.run()
