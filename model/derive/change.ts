/**
 * The versioning core, pure: replays a job's items for one entity over the entity's current state and returns what
 * must change. Version 0 is the latest; a new value different from the latest moves the old latest to version
 * max+1; an identical re-write changes nothing. The first write creates the key aspect and the type's defaults.
 * DELETE removes an aspect and all its versions; DELETE of the key aspect removes the whole entity.
 * PATCH applies its operations to the latest value (or the aspect's empty value) and writes the result as an UPSERT.
 * A conditional item (`If-Version-Match`, `If-None-Match: *`) is checked against the state as replayed so far. An
 * item refused (failed patch or precondition) changes nothing and carries its error; the job's other items apply.
 */
import { CatalogError, fail } from '../errors.ts'
import type { AspectWrite, ItemError, SystemMetadata, WriteCondition, WriteItem } from '../jobs.ts'
import { patchValue } from '../patch/patchAspect.ts'
import { checkAspectValue } from '../proposal.ts'
import type { Registry } from '../registry.ts'
import type { ParsedUrn } from '../urn.ts'
import { canonicalJson } from './canonical.ts'
import { DEFAULT_RUN_ID, normalizeSystemMetadata, type AuditStamp, type Envelope } from './envelope.ts'
import { firstWriteAspects } from './firstWrite.ts'

/** What the worker read of an entity before computing its change. */
export interface EntityState {
  latest: Map<string, Envelope>
  rev: number
  /** Highest stored history version per aspect. */
  versions: Map<string, number>
  /** Stored history per aspect (loaded only when a rollback needs it). */
  histories?: Map<string, Map<number, Envelope>>
}

/** One MetadataChangeLog entry. */
export interface ChangeLogEntry {
  entityType: string
  entityUrn: string
  changeType: 'UPSERT' | 'DELETE' | 'RESTATE'
  aspectName: string
  aspect?: unknown
  previousAspectValue?: unknown
  systemMetadata: SystemMetadata
  created: AuditStamp
}

/** Storage steps that must happen in order (everything else is a diff of before and after). */
export type StorageStep =
  | { kind: 'archive'; aspect: string; version: number; envelope: Envelope }
  | { kind: 'unarchive'; aspect: string; version: number }
  | { kind: 'dropHistory'; aspect: string }
  | { kind: 'timeseries'; aspect: string; timestampMillis: number; value: unknown }
  | { kind: 'dropTimeseries'; aspect: string }

/** Everything a job changes on one entity. */
export interface EntityChange {
  parsed: ParsedUrn
  before: EntityState
  latest: Map<string, Envelope>
  versions: Map<string, number>
  steps: StorageStep[]
  changeLog: ChangeLogEntry[]
  /** The entity was removed as a whole at some point of the job (its incoming edges go too). */
  hardDeleted: boolean
  /** Per item (in order): number of aspect changes it made. */
  itemChanges: number[]
  /** Per item (in order): why it was refused, if it was. */
  itemErrors: (ItemError | undefined)[]
  /** runId -> aspects written by that run. */
  runs: Map<string, Set<string>>
}

/** Context of a job: its audit stamp. */
export interface ChangeContext {
  actor: string
  time: number
}

/** Replays `items` (all on `parsed.urn`, in order) over `state`. */
export function computeChange(registry: Registry, parsed: ParsedUrn, state: EntityState, items: WriteItem[], ctx: ChangeContext): EntityChange {
  const change: EntityChange = {
    parsed,
    before: state,
    latest: new Map(state.latest),
    versions: new Map(state.versions),
    steps: [],
    changeLog: [],
    hardDeleted: false,
    itemChanges: [],
    itemErrors: [],
    runs: new Map(),
  }
  const histories = new Map<string, Map<number, Envelope>>()
  for (const [aspect, h] of state.histories ?? []) histories.set(aspect, new Map(h))
  const created: AuditStamp = { time: ctx.time, actor: ctx.actor }
  const entity = parsed.entity

  const log = (entry: Omit<ChangeLogEntry, 'entityType' | 'entityUrn' | 'created'>): void => {
    change.changeLog.push({ entityType: entity.name, entityUrn: parsed.urn, created, ...entry })
  }
  const noteRun = (meta: SystemMetadata, aspect: string): void => {
    if (!meta.runId || meta.runId === DEFAULT_RUN_ID) return
    let set = change.runs.get(meta.runId)
    if (!set) change.runs.set(meta.runId, (set = new Set()))
    set.add(aspect)
  }

  const upsert = (write: AspectWrite, meta: SystemMetadata): number => {
    // An aspect the registry does not know was admitted by the forward-compatibility setting: stored as versioned.
    const spec = registry.findAspect(write.name)
    if (spec?.timeseries) {
      const point = write.value as { timestampMillis: number }
      change.steps.push({ kind: 'timeseries', aspect: write.name, timestampMillis: point.timestampMillis, value: write.value })
      log({ changeType: 'UPSERT', aspectName: write.name, aspect: write.value, systemMetadata: meta })
      return 1
    }
    const previous = change.latest.get(write.name)
    if (previous && canonicalJson(previous.value) === canonicalJson(write.value)) return 0
    if (previous) {
      const version = (change.versions.get(write.name) ?? 0) + 1
      change.versions.set(write.name, version)
      change.steps.push({ kind: 'archive', aspect: write.name, version, envelope: previous })
      let history = histories.get(write.name)
      if (!history) histories.set(write.name, (history = new Map()))
      history.set(version, previous)
    }
    // As upstream reports it: the number of distinct values the aspect has had (1 after the first write).
    const version = String((change.versions.get(write.name) ?? 0) + 1)
    change.latest.set(write.name, { value: write.value, created, systemMetadata: { ...meta, version } })
    noteRun(meta, write.name)
    log({ changeType: 'UPSERT', aspectName: write.name, aspect: write.value, previousAspectValue: previous?.value, systemMetadata: meta })
    return 1
  }

  const removeAspect = (aspect: string, meta: SystemMetadata): number => {
    const previous = change.latest.get(aspect)
    if (!previous) return 0
    change.latest.delete(aspect)
    if (change.versions.has(aspect) || histories.has(aspect) || state.versions.has(aspect)) {
      change.steps.push({ kind: 'dropHistory', aspect })
      change.versions.delete(aspect)
      histories.delete(aspect)
    }
    log({ changeType: 'DELETE', aspectName: aspect, previousAspectValue: previous.value, systemMetadata: meta })
    return 1
  }

  const removeEntity = (meta: SystemMetadata): number => {
    if (change.latest.size === 0) return 0
    let count = 0
    for (const aspect of [...change.latest.keys()].filter((a) => a !== entity.keyAspect)) count += removeAspect(aspect, meta)
    count += removeAspect(entity.keyAspect, meta)
    for (const spec of registry.timeseriesAspects(entity)) change.steps.push({ kind: 'dropTimeseries', aspect: spec.name })
    change.hardDeleted = true
    return count
  }

  const rollback = (runId: string, meta: SystemMetadata): number => {
    let count = 0
    for (const aspect of [...change.latest.keys()]) {
      const current = change.latest.get(aspect)!
      if (current.systemMetadata?.runId !== runId) continue
      const history = histories.get(aspect) ?? new Map<number, Envelope>()
      // Versions written by the run are dropped from newest to oldest until one written by someone else is found.
      let version = change.versions.get(aspect) ?? 0
      let restored: Envelope | undefined
      while (version > 0) {
        const candidate = history.get(version)
        change.steps.push({ kind: 'unarchive', aspect, version })
        history.delete(version)
        version--
        if (candidate && candidate.systemMetadata?.runId !== runId) {
          restored = candidate
          break
        }
      }
      if (version > 0) change.versions.set(aspect, version)
      else change.versions.delete(aspect)
      if (restored) {
        change.latest.set(aspect, restored)
        log({ changeType: 'UPSERT', aspectName: aspect, aspect: restored.value, previousAspectValue: current.value, systemMetadata: meta })
        count++
      } else if (aspect !== entity.keyAspect) {
        count += removeAspect(aspect, meta)
      }
    }
    // The run created the entity: once every other aspect is gone, the key goes too.
    const keyEnvelope = change.latest.get(entity.keyAspect)
    if (keyEnvelope?.systemMetadata?.runId === runId && [...change.latest.keys()].every((a) => a === entity.keyAspect)) {
      count += removeEntity(meta)
    }
    return count
  }

  /** The aspect's version as reads report it: its number of distinct values so far, 0 when it does not exist. */
  const currentVersion = (aspect: string): number => (change.latest.has(aspect) ? (change.versions.get(aspect) ?? 0) + 1 : 0)

  const check = (condition: WriteCondition | undefined): void => {
    if (!condition) return
    const current = currentVersion(condition.aspect)
    if (condition.ifNoneMatch && current > 0) {
      throw fail('PRECONDITION_FAILED', `${condition.aspect} of ${parsed.urn} exists (version ${current}) and If-None-Match is *; nothing was written`,
        [{ path: 'headers.If-None-Match', message: `current version ${current}` }])
    }
    if (condition.ifVersionMatch !== undefined && condition.ifVersionMatch !== String(current)) {
      throw fail('PRECONDITION_FAILED', `${condition.aspect} of ${parsed.urn} is at version ${current}, not ${condition.ifVersionMatch}; nothing was written`,
        [{ path: 'headers.If-Version-Match', message: `current version ${current}` }])
    }
  }

  const upsertAll = (aspects: AspectWrite[], meta: SystemMetadata): number => {
    let count = 0
    if (change.latest.size === 0) {
      const given = new Set(aspects.map((a) => a.name))
      for (const write of firstWriteAspects(parsed, given)) count += upsert(write, meta)
    }
    for (const write of aspects) count += upsert(write, meta)
    return count
  }

  /** The value a patch item writes (throws, changing nothing, when it cannot apply or its result is invalid). */
  const patched = (aspect: string, operations: Parameters<typeof patchValue>[3]): AspectWrite => {
    const spec = registry.findAspect(aspect)!
    const value = patchValue(aspect, spec.schema, change.latest.get(aspect)?.value, operations, registry.urnPrefix)
    return { name: aspect, value: checkAspectValue(registry, parsed, aspect, value, `patched ${aspect}`) }
  }

  for (const item of items) {
    let count = 0
    const meta = normalizeSystemMetadata('systemMetadata' in item ? item.systemMetadata : undefined, ctx.time)
    try {
      if ('condition' in item) check(item.condition)
      if (item.op === 'patch') count = upsertAll([patched(item.aspect, item.patch)], meta)
    } catch (err) {
      if (!(err instanceof CatalogError)) throw err
      change.itemChanges.push(0)
      change.itemErrors.push({ code: err.code, message: err.message, details: err.details })
      continue
    }
    switch (item.op) {
      case 'upsert':
        count = upsertAll(item.aspects, meta)
        break
      case 'patch':
        break
      case 'delete':
        count = item.aspect === entity.keyAspect ? removeEntity(meta) : removeAspect(item.aspect, meta)
        break
      case 'deleteEntity':
        count = removeEntity(meta)
        break
      case 'rollback':
        count = rollback(item.runId, meta)
        break
    }
    change.itemChanges.push(count)
    change.itemErrors.push(undefined)
  }
  return change
}
