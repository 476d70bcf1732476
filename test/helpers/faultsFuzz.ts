/**
 * The fuzzer's requests (fast-check arbitraries) for every route of the API. Writes are always invalid, so the
 * store must stay unchanged; reads may be valid by chance (a search), which is fine. Invalid means what the API
 * reference (the served OpenAPI document, the README's decisions) calls invalid, not what the service happens to
 * refuse: an urn is hostile when the service's own parser refuses it or when it holds a lone surrogate (no Redis
 * key can hold one: Node writes U+FFFD instead, so two urns would share one entity); a body is malformed when it
 * is not UTF-8 (JSON text must be).
 */
import fc from 'fast-check'
import { RestoreBody, RollbackBody } from '../../gateway/routes/operations.ts'
import { buildRegistry } from '../../model/registry.ts'
import { parseUrn } from '../../model/urn.ts'
import { problems } from '../../model/validate.ts'

export const registry = buildRegistry()
export const ADMIN_TOKEN = 'fuzz-admin-token'
export const seeded = ['urn:svc:dataset:(urn:svc:dataPlatform:hive,fuzz_seed,PROD)', 'urn:svc:corpuser:fuzz_seed']

/** One generated request; `write` ones must get a 4xx; `batch`: a 200 accepting none of the items is right too. */
export interface Fuzzed { label: string; method: string; path: string; body?: string | Buffer; headers?: Record<string, string>; write: boolean; batch?: boolean }

/** True when the urn must be refused (see the file comment). */
export function hostile(urn: string): boolean {
  if (!urn.isWellFormed()) return true
  try {
    parseUrn(registry, urn)
    return false
  } catch {
    return true
  }
}

const lone = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff')
const control = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c))
/** Urns some route may see: anything, known-bad shapes, and valid-looking ones with one hostile piece inside. */
export const anyUrn = fc.oneof(
  fc.string(),
  fc.constantFrom('urn:svc:dataset:(((', 'urn:svc:dataset:()', 'urn:svc:corpuser:', 'urn:li:corpuser:x', '../../etc/passwd', 'urn:svc:chart:(a,b,c)',
    'urn:svc:dataset:(urn:svc:dataPlatform:hive,x,NOPE)', `urn:svc:corpuser:${'x'.repeat(10_000)}`, 'urn:svc:corpuser:a\u0000b', 'urn:svc:corpuser:\ud800',
    'urn:svc:spaceship:x', '%', '%E0%A4%A', 'urn:svc:dataset:(urn:svc:tag:x,y,PROD)', 'urn:svc:corpuser:../../x', 'urn:svc:tag:%2e%2e%2f'),
  fc.string({ unit: 'binary' }).map((s) => `urn:svc:corpuser:${s}`),
  fc.tuple(fc.string(), fc.oneof(lone, control), fc.string()).map(([a, bad, b]) => `urn:svc:corpuser:${a}${bad}x${b}`),
  fc.tuple(fc.string(), fc.oneof(lone, control)).map(([a, bad]) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${a}${bad}x,PROD)`),
  fc.string().map((s) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${s}`),
  fc.integer({ min: 2049, max: 12_000 }).map((n) => `urn:svc:tag:${'t'.repeat(n)}`),
)
/** Urns that must be refused, paired with the entity type their urn names (so only the urn is wrong). */
const hostileUrn = anyUrn.filter(hostile).map((urn) => ({ urn, type: /^urn:svc:([^:]+):/.exec(urn)?.[1] ?? 'corpuser' }))

/** A JSON text that does not parse. */
const brokenJson = fc.oneof(
  fc.string().filter((s) => { try { JSON.parse(s); return false } catch { return true } }),
  fc.jsonValue().map((v) => JSON.stringify({ proposal: v }).slice(0, -1)),
  fc.constant('{"proposal": {"entityType": "dataset",'),
)
/** Nested deeply enough to hurt a recursive parser or validator. */
const deep = fc.integer({ min: 1000, max: 20_000 }).map((d) => '['.repeat(d) + ']'.repeat(d))
const deepObject = fc.integer({ min: 1000, max: 10_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d))
/** An aspect value that fails its schema (checked with the validator the service uses). */
const invalidAspect = fc.tuple(fc.constantFrom('ownership', 'status', 'globalTags', 'schemaMetadata', 'upstreamLineage', 'datasetProperties', 'datasetProfile'), fc.jsonValue())
  .filter(([name, value]) => problems(registry.findAspect(name)!.schema, value).length > 0)
/** A body object with one known field of the wrong type or range (null would mean "no body": restore all). */
const invalidFor = (schema: typeof RestoreBody | typeof RollbackBody, fields: string[]) =>
  fc.tuple(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }), fc.constantFrom(...fields), fc.jsonValue())
    .map(([extra, field, value]) => ({ ...extra, [field]: value }))
    .filter((v) => problems(schema, v).length > 0)
/** Bytes that are not UTF-8: a lone continuation byte, an overlong '/', an encoded surrogate, 0xFF, a cut sequence. */
const notUtf8 = fc.constantFrom([0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xfe, 0xff], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80])

const proposal = (p: Record<string, unknown>) => JSON.stringify({ proposal: p })
const userInfo = (urn: string, displayName: string) => proposal({ entityType: 'corpuser', entityUrn: urn, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ active: true, displayName }), contentType: 'application/json' } })
/** A valid proposal whose text has `bytes` (not UTF-8) in place of the marker in its urn or its value. */
const withBytes = (where: 'urn' | 'value', bytes: readonly number[], n: number): Buffer => {
  const text = where === 'urn' ? userInfo(`urn:svc:corpuser:enc_MARK_${n}`, 'x') : userInfo(`urn:svc:corpuser:enc_${n}`, 'name MARK')
  const [before, after] = text.split('MARK') as [string, string]
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)])
}
/** Percent-encodes; text no URL can carry (lone surrogates) becomes an invalid UTF-8 sequence instead. */
export const enc = (s: string): string => {
  try {
    return encodeURIComponent(s)
  } catch {
    return `${encodeURIComponent(s.toWellFormed())}%ED%A0%80`
  }
}
const post = (label: string, path: string, body: string | Buffer, extra: Partial<Fuzzed> = {}): Fuzzed => ({ label, method: 'POST', path, body, write: true, ...extra })
const ingestProposal = '/aspects?action=ingestProposal'
/** Rest.li 2.0 query syntax (`List(a,b)`). */
const V2: Record<string, string> = { 'x-svc-protocol-version': '2.0.0' }
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` }

export const writes: fc.Arbitrary<Fuzzed> = fc.oneof(
  brokenJson.map((b) => post('ingestProposal: broken JSON', ingestProposal, b)),
  brokenJson.map((b) => post('ingest: broken JSON', '/entities?action=ingest', b)),
  fc.oneof(deep, deepObject).map((b) => post('ingestProposal: deep body', ingestProposal, b)),
  deepObject.map((d) => post('ingestProposal: deep aspect value', ingestProposal, proposal({ entityType: 'dataset', entityUrn: seeded[0], changeType: 'UPSERT', aspectName: 'status', aspect: { value: `{"removed":${d}}`, contentType: 'application/json' } }))),
  fc.jsonValue().map((v) => post('ingestProposal: any JSON', ingestProposal, JSON.stringify(v))),
  fc.jsonValue().map((v) => post('ingestProposal: any proposal', ingestProposal, JSON.stringify({ proposal: v }))),
  fc.jsonValue().map((v) => post('ingest: any snapshot', '/entities?action=ingest', JSON.stringify({ entity: { value: v } }))),
  fc.jsonValue().map((v) => post('ingestProposalBatch: any', '/aspects?action=ingestProposalBatch', JSON.stringify({ proposals: v }), { batch: true })),
  hostileUrn.map(({ urn, type }) => post('ingestProposal: hostile urn', ingestProposal, proposal({ entityType: type, entityUrn: urn, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } }))),
  hostileUrn.map(({ urn, type }) => post('ingest: hostile urn', '/entities?action=ingest', JSON.stringify({ entity: { value: { [`com.svc.metadata.snapshot.${type === 'dataset' ? 'Dataset' : 'CorpUser'}Snapshot`]: { urn, aspects: [{ 'com.svc.common.Status': { removed: false } }] } } } }))),
  fc.string().map((name) => post('ingestProposal: unknown aspect', ingestProposal, proposal({ entityType: 'dataset', entityUrn: seeded[0], changeType: 'UPSERT', aspectName: `nope${name}`, aspect: { value: '{}', contentType: 'application/json' } }))),
  fc.string().map((type) => post('ingestProposal: unknown entity type', ingestProposal, proposal({ entityType: `x${type}`, entityUrn: seeded[0], changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{}' } }))),
  invalidAspect.map(([name, value]) => post('ingestProposal: schema violation', ingestProposal, proposal({ entityType: 'dataset', entityUrn: seeded[0], changeType: 'UPSERT', aspectName: name, aspect: { value: JSON.stringify(value), contentType: 'application/json' } }))),
  invalidAspect.map(([name, value]) => post('ingest: schema violation', '/entities?action=ingest', JSON.stringify({ entity: { value: { 'com.svc.metadata.snapshot.DatasetSnapshot': { urn: seeded[0], aspects: [{ 'com.svc.common.Status': { removed: true } }, { [registry.findAspect(name)!.recordName]: value }] } } } }))),
  fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', '').map((ct) => post('ingestProposal: aspect content type', ingestProposal, proposal({ entityType: 'dataset', entityUrn: seeded[0], changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":true}', contentType: ct } }))),
  fc.constantFrom('PATCH', 'CREATE', 'delete', '', 'RESTATE').map((changeType) => post('ingestProposal: change type', ingestProposal, proposal({ entityType: 'dataset', entityUrn: seeded[0], changeType, aspectName: 'status', aspect: { value: '{"removed":true}' } }))),
  fc.integer({ min: 64 * 1024 + 1, max: 256 * 1024 }).map((n) => post('ingestProposal: too large', ingestProposal, JSON.stringify({ pad: 'x'.repeat(n) }))),
  fc.string({ unit: 'binary' }).map((s) => post('ingest: binary text', '/entities?action=ingest', s, { headers: { 'content-type': 'application/json; charset=latin1' } })),
  fc.tuple(fc.constantFrom('urn', 'value') as fc.Arbitrary<'urn' | 'value'>, notUtf8, fc.nat()).map(([where, bytes, n]) => post(`ingestProposal: not UTF-8 (in the ${where})`, ingestProposal, withBytes(where, bytes, n))),
  fc.tuple(fc.constantFrom('/operations', '/gms/operations', '/aspects'), fc.jsonValue()).map(([p, v]) => post('restoreIndices: no token', `${p}?action=restoreIndices`, JSON.stringify(v))),
  fc.tuple(fc.constantFrom('/operations', '/gms/operations'), fc.jsonValue(), fc.string()).map(([p, v, tok]) => post('restoreIndices: wrong token', `${p}?action=restoreIndices`, JSON.stringify(v), { headers: { authorization: `Bearer svc_${tok}` } })),
  invalidFor(RestoreBody, ['urn', 'aspect', 'urnLike', 'start', 'batchSize']).map((v) => post('restoreIndices: admin token, invalid body', '/operations?action=restoreIndices', JSON.stringify(v), { headers: bearer })),
  fc.jsonValue().map((v) => post('rollback: wrong token', '/operations?action=rollback', JSON.stringify(v), { headers: { authorization: 'Bearer svc_not_a_token' } })),
  invalidFor(RollbackBody, ['runId', 'dryRun']).map((v) => post('rollback: admin token, invalid body', '/operations?action=rollback', JSON.stringify(v), { headers: bearer })),
  fc.tuple(fc.constantFrom('PUT', 'DELETE', 'PATCH'), fc.constantFrom('/entities', '/aspects', '/entitiesV2/x', '/operations', '/nowhere')).map(([method, path]) => ({ label: 'other method', method, path, write: true })),
)

/** Query parameter names the routes read, plus brackets and dots (qs-style nesting) and nonsense. */
const paramName = fc.tuple(fc.constantFrom('aspects', 'types', 'direction', 'urn', 'start', 'count', 'maxHops', 'version', 'aspect', 'ids', 'action'), fc.constantFrom('', '', '[]', '[0]', '[a]', '[a][b]', '.a', '[__proto__]'))
  .map(([n, suffix]) => n + suffix)
const query = fc.array(fc.tuple(paramName, fc.oneof(fc.string(), fc.constantFrom('List(', 'List()', 'List(a,b', 'List(ownership)', '-1', '1e400', '9007199254740993', 'OUTGOING', 'INCOMING'))), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${enc(v)}`).join('&'))
const version = fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom('1e400', '-0', '0x1', ' 1', '1.5', 'NaN', '99999999999999999999'))

export const reads: fc.Arbitrary<Fuzzed> = fc.oneof(
  anyUrn.map((urn) => ({ label: 'entitiesV2: urn', method: 'GET', path: `/entitiesV2/${enc(urn)}`, write: false })),
  anyUrn.map((urn) => ({ label: 'entities: urn', method: 'GET', path: `/entities/${enc(urn).replace(/%3A/g, ':')}`, write: false })),
  fc.tuple(fc.constantFrom(...seeded), query, fc.boolean()).map(([urn, q, v2]) => ({ label: 'entitiesV2: query', method: 'GET', path: `/entitiesV2/${enc(urn)}?${q}`, headers: v2 ? V2 : {}, write: false })),
  fc.tuple(fc.array(anyUrn, { maxLength: 3 }), query).map(([urns, q]) => ({ label: 'entitiesV2: batch', method: 'GET', path: `/entitiesV2?ids=List(${urns.map(enc).join(',')})&${q}`, write: false })),
  fc.tuple(anyUrn, fc.string(), version).map(([urn, a, v]) => ({ label: 'aspects: version', method: 'GET', path: `/aspects/${enc(urn)}?aspect=${enc(a)}&version=${enc(v)}`, write: false })),
  fc.tuple(fc.constantFrom(...seeded), query).map(([urn, q]) => ({ label: 'aspects: query', method: 'GET', path: `/aspects/${enc(urn)}?${q}`, write: false })),
  fc.tuple(fc.string(), anyUrn, fc.string()).map(([d, urn, types]) => ({ label: 'relationships', method: 'GET', path: `/relationships?direction=${enc(d)}&urn=${enc(urn)}&types=${enc(types)}`, write: false })),
  fc.tuple(query, fc.boolean()).map(([q, v2]) => ({ label: 'relationships: query', method: 'GET', path: `/relationships?urn=${enc(seeded[0]!)}&${q}`, headers: v2 ? V2 : {}, write: false })),
  fc.tuple(anyUrn, fc.string(), fc.string()).map(([urn, d, hops]) => ({ label: 'lineage', method: 'GET', path: `/lineage?urn=${enc(urn)}&direction=${enc(d)}&maxHops=${enc(hops)}`, write: false })),
  query.map((q) => ({ label: 'lineage: query', method: 'GET', path: `/lineage?urn=${enc(seeded[0]!)}&${q}`, write: false })),
  fc.tuple(fc.constantFrom('search', 'browse', 'autocomplete'), fc.jsonValue()).map(([a, v]) => ({ label: `${a}: any`, method: 'POST', path: `/entities?action=${a}`, body: JSON.stringify(v), write: false })),
  fc.tuple(fc.constantFrom('search', 'autocomplete'), fc.jsonValue()).map(([a, filter]) => ({ label: `${a}: filter`, method: 'POST', path: `/entities?action=${a}`, body: JSON.stringify({ input: 'x', query: 'x', entity: 'dataset', filter }), write: false })),
  fc.tuple(fc.string(), fc.jsonValue()).map(([input, start]) => ({ label: 'search: paging', method: 'POST', path: '/entities?action=search', body: JSON.stringify({ input, entity: 'dataset', start, count: 10 }), write: false })),
  fc.jsonValue().map((v) => ({ label: 'getTimeseriesAspectValues', method: 'POST', path: '/aspects?action=getTimeseriesAspectValues', body: JSON.stringify(v), write: false })),
  fc.tuple(fc.string(), fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS')).map(([s, method]) => ({ label: 'nonsense path', method, path: `/${enc(s)}`, write: method !== 'GET' })),
)
