/**
 * The write-job contract between the gateway (producer) and the workers (consumer): what a job carries, which
 * partition a urn belongs to, and the queue names. Pure: no queue library is imported here.
 */
import { fnv1a } from './fnv1a.ts'
import type { PatchOperation } from './patch/apply.ts'
import { positionsBy } from './positions.ts'

/** System metadata a write may carry; `runId` makes the write part of a run that can be rolled back. */
export interface SystemMetadata {
  runId?: string
  lastObserved?: number
  [key: string]: unknown
}

/** One aspect value to upsert (already validated and cleaned by the gateway). */
export interface AspectWrite {
  name: string
  value: unknown
}

/**
 * A conditional write, from a proposal's `headers`: `ifVersionMatch` applies only while the aspect is at that version
 * (the number of distinct values it has had; 0 when absent), `ifNoneMatch` only while it does not exist. Checked by
 * the worker against the state it applies to.
 */
export interface WriteCondition {
  aspect: string
  ifVersionMatch?: string
  ifNoneMatch?: boolean
}

/** One unit of work on one entity. Items of one entity apply in order, atomically per job. */
export type WriteItem =
  | { op: 'upsert'; urn: string; entityType: string; aspects: AspectWrite[]; systemMetadata?: SystemMetadata; condition?: WriteCondition }
  | { op: 'patch'; urn: string; entityType: string; aspect: string; patch: PatchOperation[]; systemMetadata?: SystemMetadata; condition?: WriteCondition }
  | { op: 'delete'; urn: string; entityType: string; aspect: string; systemMetadata?: SystemMetadata; condition?: WriteCondition }
  | { op: 'deleteEntity'; urn: string; entityType: string }
  | { op: 'rollback'; urn: string; entityType: string; runId: string }
  /** Restore indices: re-derive the entity's index entries from its rows (`aspects`: the rows asked for; all if absent). */
  | { op: 'restate'; urn: string; entityType: string; aspects?: string[] }
  /** After `target` was hard-deleted: drop this entity's edges to it (its aspects are left as they are). */
  | { op: 'dropEdgesTo'; urn: string; entityType: string; target: string; relationships: string[] }

/**
 * A job: items (all in one partition), who asked, and when (the audit stamp of every change it makes). Without
 * `replyTo` nobody waits: the write was acknowledged once queued (async).
 */
export interface WriteJob {
  items: WriteItem[]
  actor: string
  time: number
  /** Pub/sub channel of the gateway waiting for this job (it publishes a JobReply there once applied). */
  replyTo?: string
}

/** Why the worker refused an item (a catalogue error as data: a failed patch or precondition). */
export interface ItemError {
  code: string
  message: string
  details: { path: string; message: string }[]
}

/** What happened to one item. */
export interface ItemResult {
  urn: string
  /** Aspect changes applied (0 for a no-op such as an identical re-write). */
  changes: number
  /** The item removed the whole entity (the edges others hold to it are dropped next). */
  hardDeleted?: boolean
  /** restate: rows restored, and rows asked for that are no longer stored. */
  restored?: number
  missing?: number
  /** Set when the item was refused; it changed nothing. */
  error?: ItemError
}

/** A job a worker queued after applying another (the reference cleanup of a hard delete): its id and partition. */
export interface FollowUp {
  id: string
  partition: number
}

/** A job's result, item by item, and the follow-up jobs it queued (a waiting gateway waits for them too). */
export interface JobResult {
  results: ItemResult[]
  followUps?: FollowUp[]
}

/** How long the outcome of an asynchronous write can be asked about (`GET /writes/<id>`). */
export const WRITE_RECORD_SECONDS = 24 * 3600

/** The outcome of an asynchronous write, recorded by the worker that finished it (Keys.writeRecord). */
export type WriteOutcome = { state: 'applied'; results: ItemResult[] } | { state: 'failed'; error: string }

/** What a worker publishes on the job's reply channel: the result, or the error that failed it. */
export interface JobReply {
  id: string
  result?: JobResult
  error?: string
  /** The error's catalogue code, when it has one (the gateway answers with it). */
  code?: string
}

/** The partition of a urn: FNV-1a hash of its UTF-8 bytes, mod `partitions`. Stable across processes and restarts. */
export function partitionOf(urn: string, partitions: number): number {
  return fnv1a(urn) % partitions
}

/** Positions of `items` grouped by their urn's partition, in order within each (one job per partition). */
export function positionsByPartition(items: readonly { urn: string }[], partitions: number): Map<number, number[]> {
  return positionsBy(items, (item) => partitionOf(item.urn, partitions))
}

/**
 * BullMQ queue name of a partition. The braces make it the hash tag of every key of the queue, so on a Redis
 * Cluster each queue lives in one slot (as BullMQ requires) and the queues spread over the masters.
 */
export function queueName(partition: number): string {
  return `{ingest-${partition}}`
}

/** The actor of writes made without an authenticated caller. */
export const SYSTEM_ACTOR = 'urn:svc:corpuser:__svc_system'
