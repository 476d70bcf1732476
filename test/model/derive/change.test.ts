import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { computeChange, type EntityState } from '../../../model/derive/change.ts'
import type { WriteItem } from '../../../model/jobs.ts'
import { buildRegistry } from '../../../model/registry.ts'
import { parseUrn } from '../../../model/urn.ts'

const registry = buildRegistry()
const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:foo,bar.baz,PROD)'
const parsed = parseUrn(registry, urn)
const ctx = { actor: 'urn:svc:corpuser:tester', time: 1000 }
const empty = (): EntityState => ({ latest: new Map(), rev: 0, versions: new Map() })
const upsert = (name: string, value: unknown, runId?: string): WriteItem =>
  ({ op: 'upsert', urn, entityType: 'dataset', aspects: [{ name, value }], systemMetadata: runId ? { runId } : undefined })
/** Applies items, then returns the next state as the store would hold it. */
const step = (state: EntityState, items: WriteItem[]) => {
  const change = computeChange(registry, parsed, state, items, ctx)
  const histories = new Map(state.histories ?? [])
  for (const s of change.steps) {
    if (s.kind === 'archive') histories.set(s.aspect, new Map([...(histories.get(s.aspect) ?? []), [s.version, s.envelope]]))
    if (s.kind === 'unarchive') histories.get(s.aspect)?.delete(s.version)
    if (s.kind === 'dropHistory') histories.delete(s.aspect)
  }
  return { change, next: { latest: change.latest, rev: state.rev + 1, versions: change.versions, histories } as EntityState }
}

test('first write creates the key aspect and the default aspects', () => {
  const { change } = step(empty(), [upsert('status', { removed: false })])
  assert.equal([...change.latest.keys()], ['datasetKey', 'browsePaths', 'dataPlatformInstance', 'status'])
  assert.equal(change.latest.get('datasetKey')!.value, { platform: 'urn:svc:dataPlatform:foo', name: 'bar.baz', origin: 'PROD' })
  assert.equal(change.latest.get('browsePaths')!.value, { paths: ['/prod/foo/bar/baz'] })
  assert.equal(change.latest.get('dataPlatformInstance')!.value, { platform: 'urn:svc:dataPlatform:foo' })
  assert.is(change.changeLog.length, 4)
  assert.equal(change.itemChanges, [4])
})

test('a given browsePaths replaces the default', () => {
  const { change } = step(empty(), [upsert('browsePaths', { paths: ['/a/b'] })])
  assert.equal(change.latest.get('browsePaths')!.value, { paths: ['/a/b'] })
})

test('a different value moves the old latest to version max+1; an identical one changes nothing', () => {
  let { next } = step(empty(), [upsert('status', { removed: false })])
  let r = step(next, [upsert('status', { removed: true })])
  assert.equal(r.change.steps, [{ kind: 'archive', aspect: 'status', version: 1, envelope: next.latest.get('status')! }])
  assert.is(r.change.versions.get('status'), 1)
  next = r.next
  r = step(next, [upsert('status', { removed: true })])
  assert.is(r.change.changeLog.length, 0)
  assert.equal(r.change.itemChanges, [0])
  r = step(next, [upsert('status', { removed: false })])
  assert.is(r.change.versions.get('status'), 2)
  assert.equal(r.change.changeLog[0]!.previousAspectValue, { removed: true })
})

test('identical means equal JSON whatever the key order', () => {
  const { next } = step(empty(), [upsert('ownership', { owners: [{ owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' }] })])
  const r = step(next, [upsert('ownership', { owners: [{ type: 'DATAOWNER', owner: 'urn:svc:corpuser:a' }] })])
  assert.is(r.change.changeLog.length, 0)
})

test('DELETE removes an aspect with all its versions; of the key aspect, the whole entity', () => {
  let { next } = step(empty(), [upsert('status', { removed: false }), upsert('status', { removed: true })])
  let r = step(next, [{ op: 'delete', urn, entityType: 'dataset', aspect: 'status' }])
  assert.not.ok(r.change.latest.has('status'))
  assert.ok(r.change.steps.some((s) => s.kind === 'dropHistory' && s.aspect === 'status'))
  assert.not.ok(r.change.versions.has('status'))
  next = r.next
  r = step(next, [{ op: 'delete', urn, entityType: 'dataset', aspect: 'datasetKey' }])
  assert.is(r.change.latest.size, 0)
  assert.ok(r.change.hardDeleted)
  assert.ok(r.change.steps.some((s) => s.kind === 'dropTimeseries' && s.aspect === 'datasetProfile'))
  assert.equal(r.change.changeLog.map((e) => e.changeType), ['DELETE', 'DELETE', 'DELETE'])
})

test('DELETE of an absent aspect is a no-op', () => {
  const r = step(empty(), [{ op: 'delete', urn, entityType: 'dataset', aspect: 'status' }])
  assert.is(r.change.changeLog.length, 0)
  assert.is(r.change.latest.size, 0)
})

test('timeseries values are not versioned and do not touch latest aspects (besides first-write ones)', () => {
  const r = step(empty(), [upsert('datasetProfile', { timestampMillis: 5, rowCount: 1 })])
  assert.not.ok(r.change.latest.has('datasetProfile'))
  assert.ok(r.change.latest.has('datasetKey'))
  assert.ok(r.change.steps.some((s) => s.kind === 'timeseries' && s.timestampMillis === 5))
})

test('items of one job apply in order', () => {
  const r = step(empty(), [upsert('status', { removed: true }), upsert('status', { removed: false })])
  assert.equal(r.change.latest.get('status')!.value, { removed: false })
  assert.is(r.change.versions.get('status'), 1)
})

test('rollback restores the version before the run, or removes what the run created', () => {
  let { next } = step(empty(), [upsert('status', { removed: false }, 'r0')])
  next = step(next, [upsert('status', { removed: true }, 'r1'), upsert('ownership', { owners: [] }, 'r1')]).next
  const r = step(next, [{ op: 'rollback', urn, entityType: 'dataset', runId: 'r1' }])
  assert.equal(r.change.latest.get('status')!.value, { removed: false })
  assert.not.ok(r.change.latest.has('ownership'))
  assert.not.ok(r.change.versions.has('status'))
  const whole = step(step(empty(), [upsert('status', { removed: false }, 'r2')]).next, [{ op: 'rollback', urn, entityType: 'dataset', runId: 'r2' }])
  assert.is(whole.change.latest.size, 0)
  assert.ok(whole.change.hardDeleted)
})

test.run()
