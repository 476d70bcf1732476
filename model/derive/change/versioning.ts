/**
 * Versioning steps of a replay: version 0 is the latest; a new value different from the latest moves the old
 * latest to version max+1; an identical re-write changes nothing. The first write creates the key aspect and the
 * type's defaults. A delete removes an aspect and all its versions; removing the key aspect removes the whole
 * entity. A patch applies its operations to the latest value (or the aspect's empty value) and writes the result.
 * Each step answers the number of aspect changes it made.
 */
import type { AspectWrite, SystemMetadata } from '../../jobs.ts'
import { patchValue } from '../../patch/patchAspect.ts'
import { checkAspectValue } from '../../aspectValue.ts'
import { canonicalJson } from '../../canonicalJson.ts'
import { firstWriteAspects } from '../firstWrite.ts'
import { logChange, noteRun, type Replay } from './replay.ts'

/** A time-series point: appended, never versioned. */
function appendPoint(r: Replay, write: AspectWrite, meta: SystemMetadata): number {
  const point = write.value as { timestampMillis: number }
  r.change.steps.push({ kind: 'timeseries', aspect: write.name, timestampMillis: point.timestampMillis, value: write.value })
  logChange(r, { changeType: 'UPSERT', aspectName: write.name, aspect: write.value, systemMetadata: meta })
  return 1
}

/** Writes one aspect value (an aspect the registry does not know was admitted as forward-compatible: versioned). */
export function upsert(r: Replay, write: AspectWrite, meta: SystemMetadata): number {
  if (r.registry.findAspect(write.name)?.timeseries) return appendPoint(r, write, meta)
  const { change } = r
  const previous = change.latest.get(write.name)
  if (previous && canonicalJson(previous.value) === canonicalJson(write.value)) return 0
  if (previous) {
    const version = (change.versions.get(write.name) ?? 0) + 1
    change.versions.set(write.name, version)
    change.steps.push({ kind: 'archive', aspect: write.name, version, envelope: previous })
    let history = r.histories.get(write.name)
    if (!history) r.histories.set(write.name, (history = new Map()))
    history.set(version, previous)
  }
  // As upstream reports it: the number of distinct values the aspect has had (1 after the first write).
  const version = String((change.versions.get(write.name) ?? 0) + 1)
  change.latest.set(write.name, { value: write.value, created: r.created, systemMetadata: { ...meta, version } })
  noteRun(r, meta, write.name)
  logChange(r, { changeType: 'UPSERT', aspectName: write.name, aspect: write.value, previousAspectValue: previous?.value, systemMetadata: meta })
  return 1
}

/** Writes aspect values; on an entity with nothing stored yet, the key aspect and the defaults first. */
export function upsertAll(r: Replay, aspects: AspectWrite[], meta: SystemMetadata): number {
  let count = 0
  if (r.change.latest.size === 0) {
    const given = new Set(aspects.map((a) => a.name))
    for (const write of firstWriteAspects(r.parsed, given)) count += upsert(r, write, meta)
  }
  for (const write of aspects) count += upsert(r, write, meta)
  return count
}

/** Removes an aspect and its history. */
export function removeAspect(r: Replay, aspect: string, meta: SystemMetadata): number {
  const { change } = r
  const previous = change.latest.get(aspect)
  if (!previous) return 0
  change.latest.delete(aspect)
  if (change.versions.has(aspect) || r.histories.has(aspect) || change.before.versions.has(aspect)) {
    change.steps.push({ kind: 'dropHistory', aspect })
    change.versions.delete(aspect)
    r.histories.delete(aspect)
  }
  logChange(r, { changeType: 'DELETE', aspectName: aspect, previousAspectValue: previous.value, systemMetadata: meta })
  return 1
}

/** Removes the whole entity: every aspect (the key last) and its time series. */
export function removeEntity(r: Replay, meta: SystemMetadata): number {
  const { change, parsed: { entity } } = r
  if (change.latest.size === 0) return 0
  let count = 0
  for (const aspect of [...change.latest.keys()].filter((a) => a !== entity.keyAspect)) count += removeAspect(r, aspect, meta)
  count += removeAspect(r, entity.keyAspect, meta)
  for (const spec of r.registry.timeseriesAspects(entity)) change.steps.push({ kind: 'dropTimeseries', aspect: spec.name })
  change.hardDeleted = true
  return count
}

/** The value a patch item writes (throws, changing nothing, when it cannot apply or its result is invalid). */
export function patched(r: Replay, aspect: string, operations: Parameters<typeof patchValue>[3]): AspectWrite {
  const spec = r.registry.findAspect(aspect)!
  const value = patchValue(aspect, spec.schema, r.change.latest.get(aspect)?.value, operations, r.registry.urnPrefix)
  return { name: aspect, value: checkAspectValue(r.registry, r.parsed, aspect, value, `patched ${aspect}`) }
}
