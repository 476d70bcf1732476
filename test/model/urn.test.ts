import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CatalogError } from '../../model/errors.ts'
import { buildRegistry } from '../../model/registry.ts'
import { parseUrn, splitTuple, urnId } from '../../model/urn.ts'

const registry = buildRegistry()
const code = (urn: unknown): string => {
  try {
    parseUrn(registry, urn)
    return 'OK'
  } catch (err) {
    return (err as CatalogError).code
  }
}

test('parses every urn shape of the spec into its key', () => {
  assert.equal(parseUrn(registry, 'urn:svc:dataset:(urn:svc:dataPlatform:hdfs,SampleHdfsDataset,PROD)').key,
    { platform: 'urn:svc:dataPlatform:hdfs', name: 'SampleHdfsDataset', origin: 'PROD' })
  assert.equal(parseUrn(registry, 'urn:svc:chart:(looker,baz1)').key, { dashboardTool: 'looker', chartId: 'baz1' })
  assert.equal(parseUrn(registry, 'urn:svc:dashboard:(looker,baz)').key, { dashboardTool: 'looker', dashboardId: 'baz' })
  assert.equal(parseUrn(registry, 'urn:svc:corpuser:jdoe').key, { username: 'jdoe' })
  assert.equal(parseUrn(registry, 'urn:svc:corpGroup:dev').key, { name: 'dev' })
  assert.equal(parseUrn(registry, 'urn:svc:tag:Engineering').key, { name: 'Engineering' })
  assert.equal(parseUrn(registry, 'urn:svc:glossaryTerm:instruments.FinancialInstrument_v1').key, { name: 'instruments.FinancialInstrument_v1' })
  assert.equal(parseUrn(registry, 'urn:svc:dataPlatform:hive').key, { platformName: 'hive' })
})

test('entity types match case-insensitively and the urn keeps its spelling', () => {
  const parsed = parseUrn(registry, 'urn:svc:corpUser:jdoe')
  assert.is(parsed.entity.name, 'corpuser')
  assert.is(parsed.urn, 'urn:svc:corpUser:jdoe')
})

test('dataset names may hold slashes and dots', () => {
  assert.is(parseUrn(registry, 'urn:svc:dataset:(urn:svc:dataPlatform:s3,project/root/events/x.y,PROD)').key.name, 'project/root/events/x.y')
})

test('malformed urns are INVALID_URN, unknown types UNKNOWN_ENTITY_TYPE', () => {
  assert.is(code('urn:li:corpuser:x'), 'INVALID_URN')
  assert.is(code('urn:svc:corpuser:'), 'INVALID_URN')
  assert.is(code('urn:svc:chart:(looker)'), 'INVALID_URN')
  assert.is(code('urn:svc:chart:looker,baz'), 'INVALID_URN')
  assert.is(code('urn:svc:chart:(looker,baz'), 'INVALID_URN')
  assert.is(code('urn:svc:dataset:(hdfs,x,PROD)'), 'INVALID_URN')
  assert.is(code('urn:svc:dataset:(urn:svc:tag:x,x,PROD)'), 'INVALID_URN')
  assert.is(code('urn:svc:dataset:(urn:svc:dataPlatform:hdfs,x,NOPE)'), 'INVALID_URN')
  assert.is(code('urn:svc:corpuser:a\u0000b'), 'INVALID_URN')
  assert.is(code(`urn:svc:corpuser:${'x'.repeat(5000)}`), 'INVALID_URN')
  assert.is(code(42), 'INVALID_URN')
  assert.is(code('urn:svc:spaceship:x'), 'UNKNOWN_ENTITY_TYPE')
})

test('errors name where the urn came from', () => {
  try {
    parseUrn(registry, 'bogus', 'proposal.entityUrn')
    assert.unreachable()
  } catch (err) {
    assert.is((err as CatalogError).details[0]!.path, 'proposal.entityUrn')
    assert.is((err as CatalogError).status, 400)
  }
})

test('tuples split at top-level commas only', () => {
  assert.equal(splitTuple('(a,(b,c),d)'), ['a', '(b,c)', 'd'])
  assert.is(splitTuple('(a,(b)'), undefined)
  assert.is(urnId('urn:svc:dataPlatform:hive'), 'hive')
  assert.is(urnId('urn:svc:chart:(looker,baz1)'), '(looker,baz1)')
})

test.run()
