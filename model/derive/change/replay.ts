/**
 * What replaying a job's items over one entity works on: the change built so far (change.ts's types), the history
 * it has seen, and the job's audit stamp. Each step of the replay (versioning.ts, rollback.ts, conditions.ts) is a
 * pure function of a Replay; none reads Redis.
 */
import type { ItemError, SystemMetadata } from '../../jobs.ts'
import type { Registry } from '../../registry.ts'
import type { ParsedUrn } from '../../urn.ts'
import { DEFAULT_RUN_ID, type AuditStamp, type Envelope } from '../envelope.ts'

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

/** A replay in progress. */
export interface Replay {
  registry: Registry
  parsed: ParsedUrn
  change: EntityChange
  /** History per aspect as replayed so far (what a rollback restores from). */
  histories: Map<string, Map<number, Envelope>>
  created: AuditStamp
}

/** A replay of nothing yet over `state`. */
export function startReplay(registry: Registry, parsed: ParsedUrn, state: EntityState, ctx: ChangeContext): Replay {
  const histories = new Map<string, Map<number, Envelope>>()
  for (const [aspect, h] of state.histories ?? []) histories.set(aspect, new Map(h))
  return {
    registry,
    parsed,
    histories,
    created: { time: ctx.time, actor: ctx.actor },
    change: {
      parsed, before: state, latest: new Map(state.latest), versions: new Map(state.versions),
      steps: [], changeLog: [], hardDeleted: false, itemChanges: [], itemErrors: [], runs: new Map(),
    },
  }
}

/** Adds a change-log entry stamped with the job's audit stamp. */
export function logChange(r: Replay, entry: Omit<ChangeLogEntry, 'entityType' | 'entityUrn' | 'created'>): void {
  r.change.changeLog.push({ entityType: r.parsed.entity.name, entityUrn: r.parsed.urn, created: r.created, ...entry })
}

/** Notes that `meta`'s run wrote `aspect` (what rolling the run back will undo). */
export function noteRun(r: Replay, meta: SystemMetadata, aspect: string): void {
  if (!meta.runId || meta.runId === DEFAULT_RUN_ID) return
  let set = r.change.runs.get(meta.runId)
  if (!set) r.change.runs.set(meta.runId, (set = new Set()))
  set.add(aspect)
}
