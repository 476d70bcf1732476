import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CatalogError } from '../../../model/errors.ts'
import { applyPatch, PatchFailure } from '../../../model/patch/apply.ts'
import { parsePatchDocument, patchValue } from '../../../model/patch/patchAspect.ts'
import { buildRegistry } from '../../../model/registry.ts'

const registry = buildRegistry()
const schemaOf = (aspect: string) => registry.findAspect(aspect)!.schema
const patch = (aspect: string, current: unknown, ops: unknown[]): any => patchValue(aspect, schemaOf(aspect), current, parsePatchDocument(ops, 'patch'))
const failure = (fn: () => unknown): CatalogError => {
  try { fn() } catch (err) { return err as CatalogError }
  throw new Error('expected a failure')
}

test('every RFC 6902 operation kind applies to plain documents', () => {
  const doc = { a: 1, list: ['x', 'y'], nested: { b: 2 } }
  const out = applyPatch(doc, [
    { op: 'add', path: '/list/1', value: 'between' },
    { op: 'add', path: '/list/-', value: 'last' },
    { op: 'remove', path: '/a' },
    { op: 'replace', path: '/nested/b', value: 3 },
    { op: 'copy', from: '/nested/b', path: '/copied' },
    { op: 'move', from: '/copied', path: '/moved' },
    { op: 'test', path: '/moved', value: 3 },
  ])
  assert.equal(out, { list: ['x', 'between', 'y', 'last'], nested: { b: 3 }, moved: 3 })
  assert.equal(doc, { a: 1, list: ['x', 'y'], nested: { b: 2 } }, 'the input is not changed')
})

test('an operation that cannot apply is named by index, op and path', () => {
  for (const [ops, reason] of [
    [[{ op: 'remove', path: '/missing' }], /path not found/],
    [[{ op: 'replace', path: '/missing', value: 1 }], /path not found/],
    [[{ op: 'test', path: '/a', value: 2 }], /the value there is 1/],
    [[{ op: 'add', path: '/a', value: 1 }, { op: 'move', from: '/nope', path: '/b' }], /operation 1 \(move \/b\)/],
    [[{ op: 'add', path: '/list/9', value: 1 }], /out of bounds/],
  ] as const) {
    const err = failure(() => applyPatch({ a: 1, list: [] }, ops as never)) as unknown as PatchFailure
    assert.instance(err, PatchFailure)
    assert.match(err.message, reason)
  }
})

test('tags are addressed by tag urn; adding one keeps the others, removing one drops only it', () => {
  const current = { tags: [{ tag: 'urn:svc:tag:a' }, { tag: 'urn:svc:tag:b' }] }
  assert.equal(patch('globalTags', current, [{ op: 'add', path: '/tags/urn:svc:tag:c', value: { tag: 'urn:svc:tag:c' } }]),
    { tags: [{ tag: 'urn:svc:tag:a' }, { tag: 'urn:svc:tag:b' }, { tag: 'urn:svc:tag:c' }] })
  assert.equal(patch('globalTags', current, [{ op: 'remove', path: '/tags/urn:svc:tag:a' }]), { tags: [{ tag: 'urn:svc:tag:b' }] })
})

test('a patch of a missing aspect starts from its empty value', () => {
  assert.equal(patch('globalTags', undefined, [{ op: 'add', path: '/tags/urn:svc:tag:x', value: { tag: 'urn:svc:tag:x' } }]), { tags: [{ tag: 'urn:svc:tag:x' }] })
  assert.equal(patch('ownership', undefined, [{ op: 'add', path: '/owners/urn:svc:corpuser:a/DATAOWNER', value: { owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' } }]),
    { owners: [{ owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' }] })
})

test('required free text starts empty, as upstream\'s templates start a chart\'s title', () => {
  const out = patch('chartInfo', undefined, [{ op: 'add', path: '/customProperties/k', value: 'v' }])
  assert.equal(out, { title: '', description: '', lastModified: {}, customProperties: { k: 'v' } })
})

test('owners are addressed by owner and type; removing /owners/<urn> removes every type of that owner', () => {
  const current = { owners: [{ owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' }, { owner: 'urn:svc:corpuser:a', type: 'TECHNICAL_OWNER' }, { owner: 'urn:svc:corpuser:b', type: 'DATAOWNER' }] }
  assert.equal(patch('ownership', current, [{ op: 'remove', path: '/owners/urn:svc:corpuser:a/DATAOWNER' }]).owners.length, 2)
  assert.equal(patch('ownership', current, [{ op: 'remove', path: '/owners/urn:svc:corpuser:a' }]), { owners: [{ owner: 'urn:svc:corpuser:b', type: 'DATAOWNER' }] })
})

test('keys with / are escaped as ~1 (institutional memory by url); terms, lineage and custom properties by key', () => {
  const link = { url: 'https://wiki/x', description: 'doc', createStamp: { time: 1, actor: 'urn:svc:corpuser:a' } }
  assert.equal(patch('institutionalMemory', undefined, [{ op: 'add', path: '/elements/https:~1~1wiki~1x', value: link }]), { elements: [link] })
  assert.equal(patch('glossaryTerms', { terms: [], auditStamp: { time: 1, actor: 'urn:svc:corpuser:a' } }, [{ op: 'add', path: '/terms/urn:svc:glossaryTerm:t', value: { urn: 'urn:svc:glossaryTerm:t' } }]).terms,
    [{ urn: 'urn:svc:glossaryTerm:t' }])
  const up = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,up,PROD)'
  assert.equal(patch('upstreamLineage', undefined, [{ op: 'add', path: `/upstreams/${up}`, value: { dataset: up, type: 'TRANSFORMED' } }]), { upstreams: [{ dataset: up, type: 'TRANSFORMED' }] })
  assert.equal(patch('datasetProperties', { customProperties: { a: '1', b: '2' } }, [{ op: 'add', path: '/customProperties/c', value: '3' }, { op: 'remove', path: '/customProperties/a' }]),
    { customProperties: { b: '2', c: '3' } })
})

test('editable schema field tags: the field entry is created on the way, keyed by field path', () => {
  const out = patch('editableSchemaMetadata', undefined, [
    { op: 'add', path: '/editableSchemaFieldInfo/user.id/globalTags/tags/urn:svc:tag:pii', value: { tag: 'urn:svc:tag:pii' } },
    { op: 'add', path: '/editableSchemaFieldInfo/user.id/description', value: 'the id' },
  ])
  assert.equal(out, { editableSchemaFieldInfo: [{ fieldPath: 'user.id', globalTags: { tags: [{ tag: 'urn:svc:tag:pii' }] }, description: 'the id' }] })
})

test('column-level lineage in upstream\'s form: /fineGrainedLineages/<operation>/<downstream>/<query>/<upstream>', () => {
  const field = (table: string, column: string) => `urn:svc:schemaField:(urn:svc:dataset:(urn:svc:dataPlatform:dbt,${table},PROD),${column})`
  const out = patch('upstreamLineage', undefined, [
    { op: 'add', path: `/fineGrainedLineages/NONE/${field('down', 'a')}/NONE/${field('up', 'a')}`, value: { confidenceScore: 1.0 } },
    { op: 'add', path: `/fineGrainedLineages/NONE/${field('down', 'a')}/NONE/${field('up', 'b')}`, value: { confidenceScore: 0.5 } },
  ])
  assert.equal(out.fineGrainedLineages, [{ upstreamType: 'FIELD_SET', upstreams: [field('up', 'a'), field('up', 'b')], downstreamType: 'FIELD', downstreams: [field('down', 'a')], confidenceScore: 0.5 }])
  const removed = patch('upstreamLineage', out, [{ op: 'remove', path: `/fineGrainedLineages/NONE/${field('down', 'a')}/NONE/${field('up', 'b')}` }])
  assert.equal(removed.fineGrainedLineages[0].upstreams, [field('up', 'a')])
  assert.equal(removed.fineGrainedLineages[0].confidenceScore, 0.5, 'a lineage has one score: its upstreams take it when keyed again, as upstream does')
})

test('arrays of urns are keyed by the urn itself (domains, dashboard charts)', () => {
  assert.equal(patch('domains', { domains: ['urn:svc:domain:a'] }, [{ op: 'add', path: '/domains/urn:svc:domain:b', value: 'urn:svc:domain:b' }, { op: 'remove', path: '/domains/urn:svc:domain:a' }]),
    { domains: ['urn:svc:domain:b'] })
})

test('whole arrays can be set (upstream\'s set_owners), and plain arrays are addressed by index', () => {
  const owners = [{ owner: 'urn:svc:corpuser:z', type: 'DATAOWNER' }]
  assert.equal(patch('ownership', { owners: [{ owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' }] }, [{ op: 'add', path: '/owners', value: owners }]), { owners })
  assert.equal(patch('browsePaths', { paths: ['/a', '/b'] }, [{ op: 'replace', path: '/paths/1', value: '/c' }]), { paths: ['/a', '/c'] })
})

test('a failing operation is a PATCH_FAILED naming it; a malformed document is a 400', () => {
  const err = failure(() => patch('globalTags', { tags: [] }, [{ op: 'remove', path: '/tags/urn:svc:tag:none' }]))
  assert.is(err.code, 'PATCH_FAILED')
  assert.is(err.status, 422)
  assert.match(err.message, 'remove /tags/urn:svc:tag:none')
  assert.is(failure(() => parsePatchDocument({ op: 'add' }, 'p')).code, 'INVALID_REQUEST')
  assert.is(failure(() => parsePatchDocument([{ op: 'merge', path: '/a' }], 'p')).code, 'INVALID_REQUEST')
  assert.is(failure(() => parsePatchDocument([{ op: 'add', path: '/a' }], 'p')).code, 'INVALID_REQUEST')
  assert.equal(parsePatchDocument({ patch: [{ op: 'remove', path: '/a' }] }, 'p'), [{ op: 'remove', path: '/a' }])
})

test.run()
