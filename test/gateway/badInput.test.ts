import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startService, type TestService } from '../helpers/service.ts'
import { dataKeys } from '../helpers/store.ts'

const t = suite<{ svc: TestService }>('bad input: 4xx with the error body, nothing written')
t.before(async (ctx) => { ctx.svc = await startService({ maxBodyBytes: 64 * 1024 }) })
t.after(async (ctx) => { await ctx.svc.close() })

const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,bad,PROD)'
const proposal = (over: Record<string, unknown>) => ({
  proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' }, ...over },
})
const PROPOSE = '/aspects?action=ingestProposal'
const INGEST = '/entities?action=ingest'

const cases: [string, string, string, unknown, number, string, RegExp?][] = [
  ['malformed JSON', 'POST', PROPOSE, '{"proposal": ', 400, 'MALFORMED_JSON'],
  ['no body', 'POST', PROPOSE, undefined, 400, 'INVALID_REQUEST'],
  ['proposal not an object', 'POST', PROPOSE, { proposal: 3 }, 400, 'INVALID_REQUEST', /proposal/],
  ['missing entityUrn', 'POST', PROPOSE, { proposal: { entityType: 'dataset', changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{}' } } }, 400, 'INVALID_REQUEST', /entityUrn/],
  ['invalid urn', 'POST', PROPOSE, proposal({ entityUrn: 'urn:svc:dataset:nope' }), 400, 'INVALID_URN', /proposal\.entityUrn/],
  ['unknown entity type', 'POST', PROPOSE, proposal({ entityType: 'spaceship' }), 400, 'UNKNOWN_ENTITY_TYPE'],
  ['entity type mismatch', 'POST', PROPOSE, proposal({ entityType: 'chart' }), 400, 'ENTITY_TYPE_MISMATCH'],
  ['unknown aspect', 'POST', PROPOSE, proposal({ aspectName: 'bogus' }), 400, 'UNKNOWN_ASPECT', /bogus/],
  ['aspect of another entity type', 'POST', PROPOSE, proposal({ aspectName: 'chartInfo' }), 400, 'UNKNOWN_ASPECT'],
  ['value not JSON', 'POST', PROPOSE, proposal({ aspect: { value: '{removed', contentType: 'application/json' } }), 400, 'INVALID_ASPECT', /aspect\.value/],
  ['value wrong type', 'POST', PROPOSE, proposal({ aspect: { value: '{"removed":"yes"}', contentType: 'application/json' } }), 400, 'INVALID_ASPECT', /removed/],
  ['value missing required', 'POST', PROPOSE, proposal({ aspectName: 'ownership', aspect: { value: '{}', contentType: 'application/json' } }), 400, 'INVALID_ASPECT', /owners/],
  ['key aspect not matching the urn', 'POST', PROPOSE, proposal({ aspectName: 'datasetKey', aspect: { value: '{"platform":"urn:svc:dataPlatform:hive","name":"other","origin":"PROD"}' } }), 400, 'INVALID_ASPECT'],
  ['unknown change type', 'POST', PROPOSE, proposal({ changeType: 'RESTATE' }), 400, 'UNSUPPORTED_CHANGE'],
  ['wrong content type', 'POST', PROPOSE, proposal({ aspect: { value: '{}', contentType: 'text/plain' } }), 400, 'INVALID_REQUEST'],
  ['UPSERT without aspect', 'POST', PROPOSE, proposal({ aspect: undefined }), 400, 'INVALID_REQUEST'],
  ['unknown action', 'POST', '/aspects?action=explode', {}, 400, 'INVALID_REQUEST', /explode/],
  ['no action', 'POST', '/aspects', {}, 400, 'INVALID_REQUEST'],
  ['snapshot of unknown kind', 'POST', INGEST, { entity: { value: { 'com.svc.metadata.snapshot.NopeSnapshot': { urn, aspects: [] } } } }, 400, 'UNKNOWN_ENTITY_TYPE'],
  ['snapshot urn of another type', 'POST', INGEST, { entity: { value: { 'com.svc.metadata.snapshot.ChartSnapshot': { urn, aspects: [] } } } }, 400, 'ENTITY_TYPE_MISMATCH'],
  ['snapshot aspect unknown', 'POST', INGEST, { entity: { value: { 'com.svc.metadata.snapshot.DatasetSnapshot': { urn, aspects: [{ 'com.svc.Nope': {} }] } } } }, 400, 'UNKNOWN_ASPECT'],
  ['snapshot aspect invalid (second of two)', 'POST', INGEST, { entity: { value: { 'com.svc.metadata.snapshot.DatasetSnapshot': { urn, aspects: [{ 'com.svc.common.Status': { removed: true } }, { 'com.svc.common.Ownership': { owners: 'x' } }] } } } }, 400, 'INVALID_ASPECT', /aspects\[1\]/],
  ['snapshot with two kinds', 'POST', INGEST, { entity: { value: { a: { urn }, b: { urn } } } }, 400, 'INVALID_REQUEST'],
  ['body too large', 'POST', PROPOSE, JSON.stringify({ pad: 'x'.repeat(70 * 1024) }), 413, 'PAYLOAD_TOO_LARGE'],
  ['unknown route', 'GET', '/nowhere', undefined, 404, 'NOT_FOUND'],
  ['wrong method', 'DELETE', '/entitiesV2/x', undefined, 405, 'METHOD_NOT_ALLOWED'],
  ['read: invalid urn', 'GET', '/entitiesV2/not-a-urn', undefined, 400, 'INVALID_URN'],
  ['read: unknown entity type', 'GET', '/entities/urn%3Asvc%3Aspaceship%3Ax', undefined, 400, 'UNKNOWN_ENTITY_TYPE'],
  ['versioned: no version', 'GET', `/aspects/${encodeURIComponent(urn)}?aspect=status`, undefined, 400, 'INVALID_REQUEST', /version/],
  ['versioned: bad version', 'GET', `/aspects/${encodeURIComponent(urn)}?aspect=status&version=-1`, undefined, 400, 'INVALID_REQUEST', /version/],
  ['versioned: unknown aspect', 'GET', `/aspects/${encodeURIComponent(urn)}?aspect=nope&version=0`, undefined, 400, 'UNKNOWN_ASPECT'],
  ['versioned: no aspect', 'GET', `/aspects/${encodeURIComponent(urn)}?version=0`, undefined, 400, 'INVALID_REQUEST', /aspect/],
  ['path: % without two hex digits', 'GET', '/entitiesV2/urn%3Asvc%3Acorpuser%3Aa%zz', undefined, 400, 'INVALID_REQUEST', /malformed %-escape "%zz"/],
  ['path: escapes that are not UTF-8', 'GET', '/entities/urn%3Asvc%3Acorpuser%3A%C3%28', undefined, 400, 'INVALID_REQUEST', /malformed %-escape "%C3%28"/],
  ['path: a truncated escape at the end', 'GET', '/versions/urn%3Asvc%3Acorpuser%3Aa%4', undefined, 400, 'INVALID_REQUEST', /"%4"/],
  ['path: a malformed escape on a write route', 'POST', '/aspects%G1?action=ingestProposal', proposal({}), 400, 'INVALID_REQUEST', /"%G1"/],
]

for (const [name, method, path, body, status, code, message] of cases) {
  t(name, async ({ svc }) => {
    const res = await svc.call(method, path, body)
    assert.is(res.status, status, JSON.stringify(res.body))
    assert.is(res.body.status, status)
    assert.is(res.body.code, code)
    assert.type(res.body.message, 'string')
    assert.ok(Array.isArray(res.body.details))
    if (message) assert.match(`${res.body.message} ${JSON.stringify(res.body.details)}`, message)
  })
}

t('malformedEscape names the first bad escape and passes good ones', async () => {
  const { malformedEscape } = await import('../../gateway/http/pathEscapes.ts')
  assert.is(malformedEscape('/entitiesV2/urn%3Asvc%3Atag%3A%E2%82%AC'), undefined)
  assert.is(malformedEscape('/a/b'), undefined)
  assert.is(malformedEscape('/a%2'), '%2')
  assert.is(malformedEscape('/a%'), '%')
  assert.is(malformedEscape('/a%20b%zz%C3'), '%zz')
  assert.is(malformedEscape('/a%E2%82'), '%E2%82')
  assert.is(malformedEscape('/x%3A%C3%28y'), '%C3%28')
  assert.is(malformedEscape('/x%3A%80'), '%80')
})

t('nothing was written by any of them', async ({ svc }) => {
  assert.equal(await dataKeys(svc.gateway.model.redis, svc.config.keyPrefix), [])
})

t.run()
