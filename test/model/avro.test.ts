/**
 * Avro-JSON to Rest.li JSON (model/avro.ts): every upstream sample record converts to exactly the body of its
 * `*.requests.json` twin, and each rule holds on its own.
 */
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fromAvro, mceToRequest, restliName } from '../../model/avro.ts'
import { buildRegistry } from '../../model/registry.ts'
import { fixture } from '../helpers/fixtures.ts'

const registry = buildRegistry()
const raw = (file: string): unknown[] => {
  const parsed = JSON.parse(readFileSync(new URL(`../fixtures/upstream/${file}`, import.meta.url), 'utf8')) as unknown
  return Array.isArray(parsed) ? parsed : [parsed]
}
const schemaOf = (name: string) => registry.findAspect(name)!.schema
const TWINS = ['bootstrap_mce', 'mce_list', 'single_mce', 'demo-profiles', 'test_containers', 'test_domains', 'smoke-test/tests/browse/data']

for (const name of TWINS) {
  test(`${name}.json converts record by record to the bodies of ${name}.requests.json`, () => {
    const records = raw(`${name}.json`)
    const twins = fixture(`${name}.requests.json`)
    assert.is(records.length, twins.length)
    records.forEach((record, i) => {
      const request = mceToRequest(registry, record)
      assert.equal(request.body, twins[i]!.body, twins[i]!.name)
      assert.is(request.path, twins[i]!.path, twins[i]!.name)
      assert.equal(request.headers, twins[i]!.headers, twins[i]!.name)
    })
  })
}

test('the Avro namespace segment goes from record and union names, only as a whole segment', () => {
  assert.is(restliName('com.svc.pegasus2avro.common.Status'), 'com.svc.common.Status')
  assert.is(restliName('com.svc.pegasus2avro.metadata.snapshot.DatasetSnapshot'), 'com.svc.metadata.snapshot.DatasetSnapshot')
  assert.is(restliName('com.svc.common.Status'), 'com.svc.common.Status')
  assert.is(restliName('com.svc.pegasus2avroX.Y'), 'com.svc.pegasus2avroX.Y')
})

test('with a schema: optional wrappers unwrapped, nulls dropped, record wrappers unwrapped', () => {
  const value = {
    owners: { array: [{ owner: 'urn:svc:corpuser:jdoe', type: 'DATAOWNER', source: null }] },
    lastModified: { 'com.svc.pegasus2avro.common.AuditStamp': { time: { long: 5 }, actor: 'urn:svc:corpuser:jdoe', impersonator: null } },
  }
  assert.equal(fromAvro(value, schemaOf('ownership')), {
    owners: [{ owner: 'urn:svc:corpuser:jdoe', type: 'DATAOWNER' }],
    lastModified: { time: 5, actor: 'urn:svc:corpuser:jdoe' },
  })
})

test('with a schema: bare values are wrapped where Rest.li expects a union, wrapped ones are kept', () => {
  const info = (inputs: unknown) => ({ title: 't', description: 'd', lastModified: {}, inputs })
  const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,a,PROD)'
  assert.equal((fromAvro(info([urn]), schemaOf('chartInfo')) as any).inputs, [{ string: urn }])
  assert.equal((fromAvro(info({ array: [{ string: urn }] }), schemaOf('chartInfo')) as any).inputs, [{ string: urn }])
})

test('with a schema: union members are renamed, unions are never unwrapped', () => {
  const field = { fieldPath: 'a', nativeDataType: 'string', type: { type: { 'com.svc.pegasus2avro.schema.StringType': {} } }, description: { string: 'x' } }
  const converted = fromAvro({ schemaName: 's', platform: 'urn:svc:dataPlatform:hive', version: { long: 0 }, hash: '', fields: [field],
    platformSchema: { 'com.svc.pegasus2avro.schema.OtherSchema': { rawSchema: 'r' } } }, schemaOf('schemaMetadata')) as any
  assert.equal(converted.fields[0], { fieldPath: 'a', nativeDataType: 'string', type: { type: { 'com.svc.schema.StringType': {} } }, description: 'x' })
  assert.equal(converted.platformSchema, { 'com.svc.schema.OtherSchema': { rawSchema: 'r' } })
  assert.is(converted.version, 0)
})

test('with a schema: maps unwrap only {"map": ...}; a one-entry map with a dotted key stays a map', () => {
  const schema = schemaOf('datasetProperties')
  assert.equal(fromAvro({ customProperties: { map: { a: 'b' } } }, schema), { customProperties: { a: 'b' } })
  assert.equal(fromAvro({ customProperties: { 'spark.version': '3' } }, schema), { customProperties: { 'spark.version': '3' } })
  assert.equal(fromAvro({ tags: { array: [{ string: 'x' }, null] } }, schema), { tags: ['x'] })
})

test('without a schema: Avro-typed wrappers and nulls go, record-named objects stay (they may be unions)', () => {
  assert.equal(fromAvro({ a: { string: 'x' }, b: null, c: { array: [{ int: 1 }] }, d: { 'com.svc.pegasus2avro.x.Y': { e: { boolean: true } } } }),
    { a: 'x', c: [1], d: { 'com.svc.x.Y': { e: true } } })
})

test('a union with member aliases (Avro record with fieldDiscriminator) becomes the one member that is set', () => {
  assert.equal(fromAvro({ cost: { fieldDiscriminator: 'costCode', costCode: 'c1', costId: null } }), { cost: { costCode: 'c1' } })
})

test('an MCP keeps its serialized aspect and systemMetadata, and loses auditHeader and nulls', () => {
  const request = mceToRequest(registry, {
    auditHeader: null, entityType: 'dataset', entityUrn: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,a,PROD)', entityKeyAspect: null,
    changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed": false}', contentType: 'application/json' },
    systemMetadata: { runId: 'r1', lastObserved: 5, properties: null },
  })
  assert.is(request.path, '/aspects?action=ingestProposal')
  assert.equal(request.body, { proposal: {
    entityType: 'dataset', entityUrn: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,a,PROD)', changeType: 'UPSERT', aspectName: 'status',
    aspect: { value: '{"removed": false}', contentType: 'application/json' }, systemMetadata: { runId: 'r1', lastObserved: 5 },
  } })
})

test('anything else is refused with a reason', () => {
  assert.throws(() => mceToRequest(registry, { hello: 'world' }), /neither proposedSnapshot/)
})

test.run()
