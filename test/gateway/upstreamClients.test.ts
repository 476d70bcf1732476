/**
 * Upstream's own clients against this service, unmodified: the requests the upstream Python REST emitter makes
 * (headers and bodies in its shape: the /config handshake, emit_mcp sync and async, emit_mcps batches, emit_mce
 * snapshots, deletes, PATCH proposals from its patch builders, conditional writes through proposal headers), and
 * the connector golden files (upstream's own output) written through ingestProposalBatch and read back. The suite runs
 * twice: with upstream's namespace configured (li), and with the default one on converted copies (svc).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CANONICAL_NAMESPACE, UPSTREAM_NAMESPACE } from '../../model/namespace.ts'
import { loadRegistry } from '../../model/registryFile.ts'
import { recordsOf, unitsOf } from '../../ops/cli/records.ts'
import { legacy, v2 } from '../helpers/fixtures.ts'
import { startService, type TestService } from '../helpers/service.ts'

const CONNECTORS = new URL('../fixtures/connectors/', import.meta.url)

/** JSON as Python's json.dumps writes it (the emitter's serializer): `", "` and `": "` separators, ASCII only. */
function pyDumps(value: unknown): string {
  const ascii = (v: unknown) => JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(', ')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${ascii(k)}: ${pyDumps(v)}`).join(', ')}}`
  }
  return ascii(value)
}

for (const ns of [UPSTREAM_NAMESPACE, CANONICAL_NAMESPACE]) {
  /** Upstream's names (`urn:li:`, `com.linkedin.`) in this run's namespace. */
  const conv = (text: string) => text.replaceAll('urn:li:', `urn:${ns.urn}:`).replaceAll('com.linkedin.', `${ns.record}.`)
  const urnOf = (name: string) => conv(`urn:li:dataset:(urn:li:dataPlatform:hive,clients.${name},PROD)`)
  /** What the emitter's requests session sends on every request (rest_emitter.py, RequestsSessionConfig). */
  const EMITTER_HEADERS: Record<string, string> = {
    [ns.protocolHeader]: '2.0.0',
    'Content-Type': 'application/json',
    'User-Agent': 'DataHub-Client/1.0 (sdk; rest_emitter/emit_mcp; 1.2.0.4) python-requests/2.32.3',
    'X-DataHub-Client-Mode': 'SDK',
    'X-DataHub-Py-Cli-Version': '1.2.0.4',
  }
  const systemMetadata = { lastObserved: 1700000000000, runId: 'clients-run', lastRunId: 'no-run-id-provided', properties: { clientId: 'acryl-datahub', clientVersion: '1.2.0.4' } }
  const mcp = (urn: string, aspectName: string, value: unknown, extra: Record<string, unknown> = {}) => ({
    entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName,
    aspect: { value: pyDumps(value), contentType: 'application/json' }, systemMetadata, ...extra,
  })
  const patchMcp = (urn: string, aspectName: string, ops: unknown[], headers?: Record<string, string>) => ({
    entityType: 'dataset', entityUrn: urn, changeType: 'PATCH', aspectName,
    aspect: { value: pyDumps(ops), contentType: 'application/json-patch+json' }, systemMetadata, ...(headers ? { headers } : {}),
  })
  const tag = (name: string) => conv(`urn:li:tag:${name}`)

  const t = suite<{ svc: TestService; call: TestService['call'] }>(`upstream clients [${ns.urn}]`)
  t.before(async (ctx) => {
    ctx.svc = await startService({ namespace: ns })
    // Bodies go as the emitter serializes them.
    ctx.call = (method, path, body, headers) => ctx.svc.call(method, path, body === undefined ? undefined : pyDumps(body), { ...EMITTER_HEADERS, ...headers })
  })
  t.after(async (ctx) => { await ctx.svc.close() })

  t('GET /config: the handshake the emitter checks (noCode), with what this service supports', async ({ call }) => {
    const res = await call('GET', '/config')
    assert.is(res.status, 200)
    assert.is(res.body.noCode, 'true')
    assert.is(res.body.patchCapable, true)
    assert.is(res.body.statefulIngestionCapable, false)
    assert.is(res.body.supportsImpactAnalysis, false)
    assert.equal(res.body.managedIngestion, { enabled: false })
    assert.equal(res.body.telemetry, { enabledCli: false, enabledIngestion: false })
    // Under upstream's key, 1.0.1 or later on a "core" server: upstream's SDK then uses the OpenAPI v3 routes, served here.
    assert.equal(Object.keys(res.body.versions), ['svc-catalog', 'acryldata/datahub'])
    assert.is(res.body.datahub.serverEnv, 'core')
    assert.equal(res.body.namespace, { urn: ns.urn, record: ns.record, protocolHeader: ns.protocolHeader })
  })

  t('the OpenAPI SDK\'s write and read (v3), in the namespace', async ({ call }) => {
    const urn = urnOf('v3')
    const body = [{ urn, status: { value: { removed: false }, systemMetadata }, globalTags: { value: { tags: [{ tag: tag('v3') }] } } }]
    const res = await call('POST', '/openapi/v3/entity/dataset?async=false&systemMetadata=true', body, EMITTER_HEADERS)
    assert.is(res.status, 200, JSON.stringify(res.body))
    assert.is(res.body[0].status.systemMetadata.runId, 'clients-run')
    const read = await call('GET', `/openapi/v3/entity/dataset/${encodeURIComponent(urn)}?aspects=globalTags`)
    assert.equal(read.body, { urn, globalTags: { value: { tags: [{ tag: tag('v3') }] } } })
  })

  t('the API documentation speaks the namespace', async ({ call }) => {
    const doc = JSON.stringify((await call('GET', '/svc/openapi.json')).body)
    assert.ok(doc.includes(`urn:${ns.urn}:dataset:`) && doc.includes(`${ns.record}.metadata.snapshot.TagSnapshot`) && doc.includes(ns.protocolHeader))
    if (ns.urn !== 'svc') assert.not.ok(doc.includes('urn:svc:') || doc.includes('com.svc.'))
  })

  t('emit_mcp, sync: {"proposal", "async": "false"} answers once applied; reads report the version', async ({ call }) => {
    const urn = urnOf('sync')
    const res = await call('POST', '/aspects?action=ingestProposal', { proposal: mcp(urn, 'status', { removed: false }), async: 'false' })
    assert.is(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body, { value: urn })
    const read = await call('GET', v2(urn))
    assert.equal(read.body.aspects.status.value, { removed: false })
    assert.is(read.body.aspects.status.systemMetadata.version, '1')
    assert.is(read.body.aspects.status.systemMetadata.runId, 'clients-run')
    assert.equal(read.body.aspects.datasetKey.value.platform, conv('urn:li:dataPlatform:hive'))
  })

  t('emit_mcp, async: "async": "true" answers once queued, with an id GET /writes/<id> reports on', async ({ call }) => {
    const urn = urnOf('async')
    const res = await call('POST', '/aspects?action=ingestProposal', { proposal: mcp(urn, 'status', { removed: true }), async: 'true' })
    assert.is(res.status, 200, JSON.stringify(res.body))
    assert.is(res.body.value, urn)
    assert.type(res.body.writeId, 'string')
    const status = await until(async () => (await call('GET', `/writes/${res.body.writeId}`)).body, (b) => b.state === 'applied')
    assert.equal(status.results, [{ urn, changes: 4 }])
    assert.equal((await call('GET', v2(urn))).body.aspects.status.value, { removed: true })
    const unknown = await call('GET', '/writes/0-00000000-0000-0000-0000-000000000000')
    assert.is(unknown.status, 404)
    assert.is(unknown.body.code, 'JOB_NOT_FOUND')
  })

  t('emit_mcps: ingestProposalBatch with "async" "false" and "true"; a refused item is reported alone', async ({ call }) => {
    const a = urnOf('batch_a')
    const b = urnOf('batch_b')
    const sync = await call('POST', '/aspects?action=ingestProposalBatch', {
      proposals: [mcp(a, 'status', { removed: false }), mcp(b, 'subTypes', { typeNames: ['view'] }), patchMcp(a, 'globalTags', [{ op: 'remove', path: `/tags/${tag('none')}` }])],
      async: 'false',
    })
    assert.is(sync.status, 200)
    assert.is(sync.body.value.accepted, 2)
    assert.is(sync.body.value.results[2].status, 422)
    assert.is(sync.body.value.results[2].error.code, 'PATCH_FAILED')
    const queued = await call('POST', '/aspects?action=ingestProposalBatch', { proposals: [mcp(a, 'subTypes', { typeNames: ['table'] }), mcp(b, 'status', { removed: true })], async: 'true' })
    assert.is(queued.status, 200)
    for (const r of queued.body.value.results) {
      const status = await until(async () => (await call('GET', `/writes/${r.writeId}`)).body, (s) => s.state === 'applied')
      assert.ok(status.results.some((x: { urn: string }) => x.urn === r.urn))
    }
    assert.equal((await call('GET', v2(a))).body.aspects.subTypes.value, { typeNames: ['table'] })
    assert.equal((await call('GET', v2(b))).body.aspects.status.value, { removed: true })
  })

  t('emit_mce: entities?action=ingest with the snapshot and a top-level systemMetadata', async ({ call }) => {
    const urn = urnOf('snapshot')
    const res = await call('POST', '/entities?action=ingest', {
      entity: { value: { [conv('com.linkedin.metadata.snapshot.DatasetSnapshot')]: { urn, aspects: [
        { [conv('com.linkedin.common.Status')]: { removed: false } },
        { [conv('com.linkedin.schema.SchemaMetadata')]: {
          schemaName: 'snapshot', platform: conv('urn:li:dataPlatform:hive'), version: 0, hash: '',
          platformSchema: { [conv('com.linkedin.schema.OtherSchema')]: { rawSchema: '' } },
          fields: [{ fieldPath: 'id', nativeDataType: 'int', type: { type: { [conv('com.linkedin.schema.NumberType')]: {} } } }],
        } },
      ] } } },
      systemMetadata,
    })
    assert.is(res.status, 200, JSON.stringify(res.body))
    const snapshot = (await call('GET', legacy(urn))).body.value[conv('com.linkedin.metadata.snapshot.DatasetSnapshot')]
    assert.ok(snapshot.aspects.some((a: Record<string, unknown>) => conv('com.linkedin.schema.SchemaMetadata') in a))
  })

  t('delete: entities?action=delete {"urn"} removes the entity', async ({ call }) => {
    const urn = urnOf('deleted')
    await call('POST', '/aspects?action=ingestProposal', { proposal: mcp(urn, 'status', { removed: false }), async: 'false' })
    const res = await call('POST', '/entities?action=delete', { urn })
    assert.is(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.value.urn, urn)
    assert.equal(Object.keys((await call('GET', v2(urn))).body.aspects), ['datasetKey'])
  })

  t('errors carry the message the emitter prints; a urn of another namespace says which one is expected', async ({ call }) => {
    const other = ns.urn === 'li' ? 'urn:svc:dataset:(urn:svc:dataPlatform:hive,x,PROD)' : 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)'
    const res = await call('POST', '/aspects?action=ingestProposal', { proposal: mcp(other, 'status', { removed: false }), async: 'false' })
    assert.is(res.status, 400)
    assert.is(res.body.code, 'INVALID_URN')
    assert.match(res.body.message, `urn:${ns.urn}:`)
  })

  t('PATCH: many clients adding different tags to one dataset at once all survive', async ({ svc, call }) => {
    const urn = urnOf('concurrent_tags')
    // A second gateway (its own queue writer) on the same data, and a second set of workers: clients race through both.
    const other = await startService({ namespace: ns, keyPrefix: svc.config.keyPrefix })
    const names = Array.from({ length: 40 }, (_, i) => `t${i}`)
    const answers = await Promise.all(names.map((name, i) => (i % 2 === 0 ? call : other.call)('POST', '/aspects?action=ingestProposal', {
      proposal: patchMcp(urn, 'globalTags', [{ op: 'add', path: `/tags/${tag(name)}`, value: { tag: tag(name) } }]),
      async: i % 4 === 0 ? 'true' : 'false',
    }, EMITTER_HEADERS)))
    await other.close()
    for (const a of answers) assert.is(a.status, 200, JSON.stringify(a.body))
    const tags = await until(async () => (await call('GET', v2(urn))).body.aspects.globalTags?.value.tags ?? [], (list) => list.length === names.length)
    assert.equal(new Set(tags.map((x: { tag: string }) => x.tag)), new Set(names.map(tag)))
  })

  t('search, facets and relationships follow the namespace', async ({ call }) => {
    const urn = urnOf('concurrent_tags')
    const byTag = await call('POST', '/entities?action=search', { input: `tags:${tag('t7')}`, entity: 'dataset', start: 0, count: 10 })
    assert.equal(byTag.body.value.entities, [urn])
    const byWord = await call('POST', '/entities?action=search', { input: 'concurrent_tags', entity: 'dataset', start: 0, count: 10 })
    assert.ok(byWord.body.value.entities.includes(urn))
    const edges = await call('GET', `/relationships?direction=INCOMING&urn=${encodeURIComponent(tag('t7'))}&types=TaggedWith`)
    assert.equal(edges.body.entities, [urn])
  })

  t('PATCH: a failing operation is a 422 naming it, and nothing changes', async ({ call }) => {
    const urn = urnOf('patch_fail')
    await call('POST', '/aspects?action=ingestProposal', { proposal: patchMcp(urn, 'globalTags', [{ op: 'add', path: `/tags/${tag('keep')}`, value: { tag: tag('keep') } }]) })
    const before = (await call('GET', v2(urn))).body
    const res = await call('POST', '/aspects?action=ingestProposal', { proposal: patchMcp(urn, 'globalTags', [
      { op: 'add', path: `/tags/${tag('new')}`, value: { tag: tag('new') } },
      { op: 'test', path: `/tags/${tag('keep')}/context`, value: 'x' },
    ]) })
    assert.is(res.status, 422)
    assert.is(res.body.code, 'PATCH_FAILED')
    assert.match(res.body.message, `operation 1 (test /tags/${tag('keep')}/context)`)
    assert.equal((await call('GET', v2(urn))).body, before)
  })

  t('PATCH from upstream\'s builders: owners by owner and type, custom properties, editable field tags', async ({ call }) => {
    const urn = urnOf('builders')
    const owner = conv('urn:li:corpuser:jdoe')
    const res = await call('POST', '/aspects?action=ingestProposalBatch', { proposals: [
      patchMcp(urn, 'ownership', [{ op: 'add', path: `/owners/${owner}/TECHNICAL_OWNER`, value: { owner, type: 'TECHNICAL_OWNER' } }]),
      patchMcp(urn, 'datasetProperties', [{ op: 'add', path: '/customProperties/team', value: 'core' }, { op: 'add', path: '/description', value: 'patched' }]),
      patchMcp(urn, 'editableSchemaMetadata', [{ op: 'add', path: `/editableSchemaFieldInfo/user~1id/globalTags/tags/${tag('pii')}`, value: { tag: tag('pii') } }]),
    ], async: 'false' })
    assert.equal(res.body.value.results.map((r: { status: number }) => r.status), [200, 200, 200], JSON.stringify(res.body))
    const aspects = (await call('GET', v2(urn))).body.aspects
    assert.equal(aspects.ownership.value.owners, [{ owner, type: 'TECHNICAL_OWNER' }])
    assert.equal(aspects.datasetProperties.value, { customProperties: { team: 'core' }, description: 'patched' })
    assert.equal(aspects.editableSchemaMetadata.value.editableSchemaFieldInfo, [{ fieldPath: 'user/id', globalTags: { tags: [{ tag: tag('pii') }] } }])
  })

  t('conditional writes: a stale If-Version-Match is a 412 naming the current version and writes nothing; a current one applies', async ({ call }) => {
    const urn = urnOf('conditional')
    for (const removed of [false, true]) await call('POST', '/aspects?action=ingestProposal', { proposal: mcp(urn, 'status', { removed }) })
    const version = (await call('GET', v2(urn))).body.aspects.status.systemMetadata.version
    assert.is(version, '2')
    const stale = await call('POST', '/aspects?action=ingestProposal', { proposal: mcp(urn, 'status', { removed: false }, { headers: { 'If-Version-Match': '1' } }) })
    assert.is(stale.status, 412)
    assert.is(stale.body.code, 'PRECONDITION_FAILED')
    assert.match(stale.body.message, 'version 2')
    assert.equal((await call('GET', v2(urn))).body.aspects.status.value, { removed: true })
    const current = await call('POST', '/aspects?action=ingestProposal', { proposal: mcp(urn, 'status', { removed: false }, { headers: { 'If-Version-Match': '2' } }) })
    assert.is(current.status, 200)
    assert.equal((await call('GET', v2(urn))).body.aspects.status.value, { removed: false })
    const create = await call('POST', '/aspects?action=ingestProposal', { proposal: patchMcp(urn, 'globalTags', [{ op: 'add', path: `/tags/${tag('x')}`, value: { tag: tag('x') } }], { 'If-None-Match': '*' }) })
    assert.is(create.status, 200)
    const again = await call('POST', '/aspects?action=ingestProposal', { proposal: mcp(urn, 'status', { removed: true }, { headers: { 'If-None-Match': '*' } }) })
    assert.is(again.status, 412)
    assert.is((await call('GET', v2(urn))).body.aspects.status.value.removed, false)
  })

  t('connector golden files go through ingestProposalBatch and read back', async ({ svc, call }) => {
    const registry = loadRegistry('', { namespace: ns })
    const skipped = new Map<string, number>()
    let checked = 0
    for (const file of readdirSync(CONNECTORS).filter((f) => f.endsWith('.json')).sort()) {
      const records = recordsOf(JSON.parse(conv(readFileSync(new URL(file, CONNECTORS), 'utf8'))))
      const { units, rejected } = unitsOf(registry, file, records)
      assert.is(rejected.length, 0, JSON.stringify(rejected.slice(0, 3)))
      const proposals = units.flatMap((u) => u.proposals) as { entityUrn: string; aspectName: string; changeType: string }[]
      const res = await call('POST', '/aspects?action=ingestProposalBatch', { proposals, async: 'false' })
      assert.is(res.status, 200, JSON.stringify(res.body).slice(0, 500))
      res.body.value.results.forEach((r: { index: number; status: number; error?: { code: string; message: string } }) => {
        if (r.status === 200) return
        // Only what the registry does not model (entity types and aspects beyond it) may be refused.
        assert.ok(['UNKNOWN_ENTITY_TYPE', 'UNKNOWN_ASPECT'].includes(r.error!.code), `${file}[${r.index}]: ${r.error!.code} ${r.error!.message}`)
        skipped.set(r.error!.code, (skipped.get(r.error!.code) ?? 0) + 1)
      })
      const accepted = proposals.filter((_, i) => res.body.value.results[i].status === 200 && proposals[i]!.changeType !== 'DELETE')
      for (const p of accepted) {
        const read = await svc.call('GET', v2(p.entityUrn, `?aspects=List(${p.aspectName})`))
        const aspect = read.body.aspects[p.aspectName]
        const timeseries = registry.findAspect(p.aspectName)?.timeseries
        assert.ok(timeseries || aspect, `${file}: ${p.entityUrn} ${p.aspectName} reads back`)
        checked++
      }
    }
    assert.ok(checked > 200, `${checked} proposals read back`)
  })

  t.run()
}

/** Polls `read` until `done` holds (a few seconds at most). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
