import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { computeChange, type EntityState } from '../../../model/derive/change.ts'
import type { WriteCondition, WriteItem } from '../../../model/jobs.ts'
import { buildRegistry } from '../../../model/registry.ts'
import { parseUrn } from '../../../model/urn.ts'

const registry = buildRegistry()
const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:foo,bar.baz,PROD)'
const parsed = parseUrn(registry, urn)
const ctx = { actor: 'urn:svc:corpuser:tester', time: 1000 }
const empty = (): EntityState => ({ latest: new Map(), rev: 0, versions: new Map() })
const base = { urn, entityType: 'dataset' }
const addTag = (name: string, condition?: WriteCondition): WriteItem =>
  ({ op: 'patch', ...base, aspect: 'globalTags', patch: [{ op: 'add', path: `/tags/urn:svc:tag:${name}`, value: { tag: `urn:svc:tag:${name}` } }], ...(condition ? { condition } : {}) })
const next = (state: EntityState, items: WriteItem[]) => {
  const change = computeChange(registry, parsed, state, items, ctx)
  return { change, state: { latest: change.latest, rev: state.rev + 1, versions: change.versions } as EntityState }
}

test('patches of one job apply one after the other to the latest value; the first creates the entity', () => {
  const { change } = next(empty(), [addTag('a'), addTag('b')])
  assert.equal(change.latest.get('globalTags')!.value, { tags: [{ tag: 'urn:svc:tag:a' }, { tag: 'urn:svc:tag:b' }] })
  assert.ok(change.latest.has('datasetKey'))
  assert.equal(change.itemErrors, [undefined, undefined])
})

test('a refused patch changes nothing and carries its error; the other items of the job apply', () => {
  const bad: WriteItem = { op: 'patch', ...base, aspect: 'globalTags', patch: [{ op: 'remove', path: '/tags/urn:svc:tag:nope' }] }
  const { change } = next(empty(), [addTag('a'), bad, addTag('c')])
  assert.equal(change.itemChanges[1], 0)
  assert.is(change.itemErrors[1]!.code, 'PATCH_FAILED')
  assert.match(change.itemErrors[1]!.message, 'remove /tags/urn:svc:tag:nope')
  assert.equal(change.latest.get('globalTags')!.value, { tags: [{ tag: 'urn:svc:tag:a' }, { tag: 'urn:svc:tag:c' }] })
})

test('a patch whose result breaks the schema is refused (INVALID_ASPECT) and writes nothing', () => {
  const bad: WriteItem = { op: 'patch', ...base, aspect: 'globalTags', patch: [{ op: 'add', path: '/tags/x', value: { tag: 'not a urn' } }] }
  const { change } = next(empty(), [bad])
  assert.is(change.itemErrors[0]!.code, 'INVALID_ASPECT')
  assert.is(change.changeLog.length, 0)
  assert.is(change.latest.size, 0)
})

test('reads see the version as the number of distinct values; If-Version-Match applies only at that version', () => {
  let s = next(empty(), [addTag('a')]).state
  assert.is(s.latest.get('globalTags')!.systemMetadata!.version, '1')
  s = next(s, [addTag('b')]).state
  assert.is(s.latest.get('globalTags')!.systemMetadata!.version, '2')
  const stale = next(s, [addTag('c', { aspect: 'globalTags', ifVersionMatch: '1' })])
  assert.is(stale.change.itemErrors[0]!.code, 'PRECONDITION_FAILED')
  assert.match(stale.change.itemErrors[0]!.message, 'is at version 2, not 1')
  assert.is(stale.change.changeLog.length, 0)
  const current = next(s, [addTag('c', { aspect: 'globalTags', ifVersionMatch: '2' })])
  assert.equal(current.change.itemErrors, [undefined])
  assert.is(current.change.latest.get('globalTags')!.systemMetadata!.version, '3')
})

test('If-None-Match: * creates only; conditions also hold for UPSERT and DELETE', () => {
  const upsert = (condition: WriteCondition): WriteItem => ({ op: 'upsert', ...base, aspects: [{ name: 'status', value: { removed: false } }], condition })
  let r = next(empty(), [upsert({ aspect: 'status', ifNoneMatch: true })])
  assert.equal(r.change.itemErrors, [undefined])
  const again = next(r.state, [upsert({ aspect: 'status', ifNoneMatch: true })])
  assert.is(again.change.itemErrors[0]!.code, 'PRECONDITION_FAILED')
  const del: WriteItem = { op: 'delete', ...base, aspect: 'status', condition: { aspect: 'status', ifVersionMatch: '7' } }
  r = next(r.state, [del])
  assert.is(r.change.itemErrors[0]!.code, 'PRECONDITION_FAILED')
  assert.ok(r.change.latest.has('status'))
})

test.run()
