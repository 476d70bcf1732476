/**
 * Upstream's connector golden files (test/fixtures/connectors/) sent as upstream's writers send them, not cleaned by
 * this service's CLI: proposals with `aspect.json` or `aspect.value`, snapshots in their Avro-JSON form with `null`
 * for every absent optional field. In both namespaces (upstream's `li` on the files as they are, the default `svc` on
 * converted copies), one record at a time and through the batch route: every record is accepted, and every versioned
 * aspect reads back as sent (a `null` reads as absent). Also: a `null` in a required field is a 400 naming it, and
 * fields the model does not know are kept and reported (or refused with UNKNOWN_FIELDS=refuse).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { aspectNameOfRecord } from '../../model/avro.ts'
import { CANONICAL_NAMESPACE, UPSTREAM_NAMESPACE, type Namespace } from '../../model/namespace.ts'
import { loadRegistry } from '../../model/registryFile.ts'
import { startService, type TestService } from '../helpers/service.ts'

const DIR = new URL('../fixtures/connectors/', import.meta.url)
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()
const enc = encodeURIComponent
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A value as it reads back: every `null` field absent (what upstream's null means). */
function present(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(present)
  if (!isObject(value)) return value
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, present(v)]))
}

interface Sent { urn: string; aspect: string; value: unknown; patched: boolean }

/** A file's records in namespace `ns`: snapshot and record names without Avro's `.pegasus2avro` segment, nothing else changed. */
function recordsIn(ns: Namespace, file: string): Record<string, any>[] {
  const text = readFileSync(new URL(file, DIR), 'utf8').replaceAll('.pegasus2avro.', '.')
  return JSON.parse(text.replaceAll('urn:li:', `urn:${ns.urn}:`).replaceAll('com.linkedin.', `${ns.record}.`))
}

for (const ns of [UPSTREAM_NAMESPACE, CANONICAL_NAMESPACE]) {
  const registry = loadRegistry('', { namespace: ns })
  const aspectOfRecord = (name: string) => aspectNameOfRecord(registry, name)

  /** What a file's records write, in order: the last value of each versioned aspect wins. */
  function sentOf(records: Record<string, any>[]): Sent[] {
    const sent: Sent[] = []
    for (const r of records) {
      if (r.proposedSnapshot) {
        const snapshot = Object.values(r.proposedSnapshot)[0] as { urn: string; aspects: Record<string, unknown>[] }
        for (const entry of snapshot.aspects) {
          const [record, value] = Object.entries(entry)[0]!
          sent.push({ urn: snapshot.urn, aspect: aspectOfRecord(record), value, patched: false })
        }
      } else if (r.changeType === 'UPSERT' || r.changeType === 'PATCH') {
        const value = r.aspect.json ?? JSON.parse(r.aspect.value)
        sent.push({ urn: r.entityUrn, aspect: r.aspectName, value, patched: r.changeType === 'PATCH' })
      }
    }
    return sent
  }

  /** The proposals of a file for the batch route: snapshots' aspects as proposals carrying the aspect as sent. */
  function proposalsOf(records: Record<string, any>[]): unknown[] {
    return records.flatMap((r) => {
      if (!r.proposedSnapshot) return [r]
      const snapshot = Object.values(r.proposedSnapshot)[0] as { urn: string; aspects: Record<string, unknown>[] }
      const entityType = snapshot.urn.split(':')[2]
      return snapshot.aspects.map((entry) => {
        const [record, json] = Object.entries(entry)[0]!
        return { entityType, entityUrn: snapshot.urn, changeType: 'UPSERT', aspectName: aspectOfRecord(record), aspect: { json }, systemMetadata: r.systemMetadata }
      })
    })
  }

  async function readBack(svc: TestService, file: string, sent: Sent[]): Promise<number> {
    const last = new Map<string, Sent>()
    const patched = new Set<string>()
    for (const s of sent) {
      const key = `${s.urn} ${s.aspect}`
      if (s.patched) patched.add(key)
      else last.set(key, s)
    }
    let checked = 0
    for (const [key, s] of last) {
      if (registry.findAspect(s.aspect)?.timeseries) continue
      const res = await svc.call('GET', `/entitiesV2/${enc(s.urn)}?aspects=List(${s.aspect})`)
      assert.is(res.status, 200, `${file}: ${key}`)
      const value = res.body.aspects[s.aspect]?.value
      if (patched.has(key)) assert.ok(value, `${file}: ${key} (patched) reads back`)
      else assert.equal(value, present(s.value), `${file}: ${key} reads back as sent`)
      checked++
    }
    return checked
  }

  for (const mode of ['one record at a time', 'batch'] as const) {
    const t = suite<{ svc: TestService }>(`golden files sent raw [${ns.urn}, ${mode}]`)
    t.before(async (ctx) => { ctx.svc = await startService({ namespace: ns }) })
    t.after(async (ctx) => { await ctx.svc.close() })

    t('every record is accepted and every versioned aspect reads back exactly', async ({ svc }) => {
      let checked = 0
      for (const file of FILES) {
        const records = recordsIn(ns, file)
        if (mode === 'batch') {
          const proposals = proposalsOf(records)
          const res = await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals })
          assert.is(res.status, 200, file)
          const refused = res.body.value.results.filter((r: { status: number }) => r.status !== 200)
          assert.equal(refused, [], `${file}: ${JSON.stringify(refused.slice(0, 2))}`)
        } else {
          for (const [i, r] of records.entries()) {
            const res = r.proposedSnapshot
              ? await svc.call('POST', '/entities?action=ingest', { entity: { value: r.proposedSnapshot }, systemMetadata: r.systemMetadata })
              : await svc.call('POST', '/aspects?action=ingestProposal', { proposal: r })
            assert.is(res.status, 200, `${file}[${i}]: ${JSON.stringify(res.body).slice(0, 400)}`)
          }
        }
        checked += await readBack(svc, file, sentOf(records))
      }
      assert.ok(checked > 300, `${checked} aspects read back`)
    })

    t.run()
  }
}

const t = suite<{ svc: TestService; refusing: TestService }>('nulls and unknown fields')
t.before(async (ctx) => {
  ctx.svc = await startService()
  ctx.refusing = await startService({ unknownFields: 'refuse' })
})
t.after(async (ctx) => {
  await ctx.svc.close()
  await ctx.refusing.close()
})

const user = 'urn:svc:corpuser:nulls'
const propose = (svc: TestService, aspectName: string, json: unknown, extra: Record<string, unknown> = {}) =>
  svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'corpuser', entityUrn: user, changeType: 'UPSERT', aspectName, aspect: { json }, ...extra } })

t('a null in an optional field is absent, in proposals, their envelope, batches and snapshots', async ({ svc }) => {
  const res = await propose(svc, 'corpUserInfo', { active: true, displayName: 'N', title: null, email: null, managerUrn: null }, { systemMetadata: null, entityKeyAspect: null, auditHeader: null })
  assert.is(res.status, 200, JSON.stringify(res.body))
  assert.equal(res.body, { value: user })
  assert.equal((await svc.call('GET', `/entitiesV2/${enc(user)}`)).body.aspects.corpUserInfo.value, { active: true, displayName: 'N' })
  const batch = await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals: [
    { entityType: 'corpuser', entityUrn: user, changeType: 'UPSERT', aspectName: 'status', aspect: { json: { removed: null } }, systemMetadata: { runId: null, lastObserved: null } },
  ] })
  assert.equal(batch.body.value.results.map((r: { status: number }) => r.status), [200])
  const group = 'urn:svc:corpGroup:nulls'
  const snapshot = await svc.call('POST', '/entities?action=ingest', {
    entity: { value: { 'com.svc.metadata.snapshot.CorpGroupSnapshot': { urn: group, aspects: [{ 'com.svc.identity.CorpGroupInfo': { displayName: 'G', email: null, admins: [], members: [], groups: [], slack: null } }] } } },
    systemMetadata: { lastObserved: 1, runId: 'r', registryName: null, properties: null },
  })
  assert.is(snapshot.status, 200, JSON.stringify(snapshot.body))
  assert.equal((await svc.call('GET', `/entitiesV2/${enc(group)}`)).body.aspects.corpGroupInfo.value, { displayName: 'G', admins: [], members: [], groups: [] })
})

t('a null in a required field is a 400 naming it, and nothing is written', async ({ svc }) => {
  const other = 'urn:svc:corpuser:required-null'
  const res = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'corpuser', entityUrn: other, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { json: { active: null } } } })
  assert.is(res.status, 400)
  assert.is(res.body.code, 'INVALID_ASPECT')
  assert.equal(res.body.details.map((d: { path: string }) => d.path), ['proposal.aspect.value/active'])
  const envelope = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'corpuser', entityUrn: other, changeType: null, aspectName: 'status', aspect: { json: {} } } })
  assert.is(envelope.status, 400)
  assert.match(JSON.stringify(envelope.body.details), /changeType/)
  const snapshot = await svc.call('POST', '/entities?action=ingest', { entity: { value: { 'com.svc.metadata.snapshot.CorpGroupSnapshot': { urn: 'urn:svc:corpGroup:rn', aspects: [{ 'com.svc.identity.CorpGroupInfo': { admins: null, members: [], groups: [] } }] } } } })
  assert.is(snapshot.status, 400)
  assert.match(snapshot.body.details[0].path, /CorpGroupInfo\/admins$/)
  assert.not.ok((await svc.call('GET', `/entitiesV2/${enc(other)}`)).body.aspects?.corpUserInfo)
})

t('fields the model does not know are kept as sent and listed in the write result', async ({ svc }) => {
  const value = { active: true, displayName: 'U', futureField: { nested: [1, 2] }, customProperties: { k: 'v' } }
  const res = await propose(svc, 'corpUserInfo', value)
  assert.is(res.status, 200)
  assert.equal(res.body.unknownFields, ['proposal.aspect.value/futureField'])
  assert.equal((await svc.call('GET', `/entitiesV2/${enc(user)}`)).body.aspects.corpUserInfo.value, value)
  const batch = await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals: [
    { entityType: 'corpuser', entityUrn: user, changeType: 'UPSERT', aspectName: 'status', aspect: { json: { removed: false, reason: 'x' } } },
    { entityType: 'corpuser', entityUrn: user, changeType: 'UPSERT', aspectName: 'status', aspect: { json: { removed: false } } },
  ] })
  assert.equal(batch.body.value.results.map((r: { unknownFields?: string[] }) => r.unknownFields), [['proposals[0].aspect.value/reason'], undefined])
  const snapshot = await svc.call('POST', '/entities?action=ingest', {
    entity: { value: { 'com.svc.metadata.snapshot.TagSnapshot': { urn: 'urn:svc:tag:kept', aspects: [{ 'com.svc.tag.TagProperties': { name: 'kept', newer: true } }] } } },
  })
  assert.equal(snapshot.body, { unknownFields: ['entity.value.com.svc.metadata.snapshot.TagSnapshot.aspects[0].com.svc.tag.TagProperties/newer'] })
  assert.equal((await svc.call('GET', `/entitiesV2/${enc('urn:svc:tag:kept')}`)).body.aspects.tagProperties.value, { name: 'kept', newer: true })
})

t('queryProperties.customProperties (a current snowflake connector sends {}) is in the model and reads back', async ({ refusing }) => {
  const query = 'urn:svc:query:snowflake-q1'
  const value = {
    customProperties: {}, statement: { value: 'select 1', language: 'SQL' }, source: 'SYSTEM',
    created: { time: 1, actor: 'urn:svc:corpuser:_ingestion' }, lastModified: { time: 1, actor: 'urn:svc:corpuser:_ingestion' },
  }
  const res = await refusing.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'query', entityUrn: query, changeType: 'UPSERT', aspectName: 'queryProperties', aspect: { json: value } } })
  assert.is(res.status, 200, JSON.stringify(res.body))
  assert.equal((await refusing.call('GET', `/entitiesV2/${enc(query)}`)).body.aspects.queryProperties.value, value)
})

t('UNKNOWN_FIELDS=refuse: a 400 naming the field, nothing written', async ({ refusing }) => {
  const res = await propose(refusing, 'corpUserInfo', { active: true, futureField: 1 })
  assert.is(res.status, 400)
  assert.is(res.body.code, 'INVALID_ASPECT')
  assert.equal(res.body.details.map((d: { path: string }) => d.path), ['proposal.aspect.value/futureField'])
  assert.not.ok((await refusing.call('GET', `/entitiesV2/${enc(user)}`)).body.aspects?.corpUserInfo)
  assert.is((await propose(refusing, 'corpUserInfo', { active: true, customProperties: { anyKey: 'maps are not fields' } })).status, 200)
})

t('PATCH of an absent dataJobInputOutput adds edges (the template), as upstream connectors send it', async ({ svc }) => {
  const job = 'urn:svc:dataJob:(urn:svc:dataFlow:(nifi,flow,PROD),task)'
  const up = 'urn:svc:dataJob:(urn:svc:dataFlow:(nifi,flow,PROD),before)'
  const ds = 'urn:svc:dataset:(urn:svc:dataPlatform:s3,bucket/in,PROD)'
  const ops = [
    { op: 'add', path: `/inputDatajobEdges/${up}`, value: { destinationUrn: up } },
    { op: 'add', path: `/inputDatasetEdges/${ds.replaceAll('/', '~1')}`, value: { destinationUrn: ds } },
  ]
  const res = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataJob', entityUrn: job, changeType: 'PATCH', aspectName: 'dataJobInputOutput', aspect: { json: ops } } })
  assert.is(res.status, 200, JSON.stringify(res.body))
  const value = (await svc.call('GET', `/entitiesV2/${enc(job)}`)).body.aspects.dataJobInputOutput.value
  assert.equal(value, { inputDatasets: [], outputDatasets: [], inputDatajobEdges: [{ destinationUrn: up }], inputDatasetEdges: [{ destinationUrn: ds }] })
})

t.run()
