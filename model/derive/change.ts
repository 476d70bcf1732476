/**
 * The versioning core, pure: replays a job's items for one entity over the entity's current state and returns what
 * must change. The steps are named apart: versioning (change/versioning.ts: upsert, patch, delete, first-write
 * defaults), rollback of a run (change/rollback.ts), conditions (change/conditions.ts). An item refused (failed
 * patch or precondition) changes nothing and carries its error; the job's other items apply.
 */
import { CatalogError } from '../errors.ts'
import type { AspectWrite, SystemMetadata, WriteItem } from '../jobs.ts'
import type { Registry } from '../registry.ts'
import type { ParsedUrn } from '../urn.ts'
import { checkCondition } from './change/conditions.ts'
import { startReplay, type ChangeContext, type EntityChange, type EntityState, type Replay } from './change/replay.ts'
import { rollbackRun } from './change/rollback.ts'
import { patched, removeAspect, removeEntity, upsertAll } from './change/versioning.ts'
import { normalizeSystemMetadata } from './envelope.ts'

export type { ChangeContext, ChangeLogEntry, EntityChange, EntityState, StorageStep } from './change/replay.ts'

/**
 * What an item writes, or throws the CatalogError that refuses it (a failed condition or patch). Nothing of the
 * replay has changed when it throws.
 */
function admit(r: Replay, item: WriteItem): AspectWrite[] | undefined {
  if ('condition' in item) checkCondition(r, item.condition)
  return item.op === 'patch' ? [patched(r, item.aspect, item.patch)] : item.op === 'upsert' ? item.aspects : undefined
}

/** Applies one admitted item (`writes`: what admit answered); answers its number of aspect changes. */
function applyItem(r: Replay, item: WriteItem, writes: AspectWrite[] | undefined, meta: SystemMetadata): number {
  switch (item.op) {
    case 'upsert':
    case 'patch': return upsertAll(r, writes!, meta)
    case 'delete': return item.aspect === r.parsed.entity.keyAspect ? removeEntity(r, meta) : removeAspect(r, item.aspect, meta)
    case 'deleteEntity': return removeEntity(r, meta)
    case 'rollback': return rollbackRun(r, item.runId, meta)
    default: throw new Error(`not an aspect item: ${item.op}`)
  }
}

/** Replays `items` (all on `parsed.urn`, in order) over `state`. */
export function computeChange(registry: Registry, parsed: ParsedUrn, state: EntityState, items: WriteItem[], ctx: ChangeContext): EntityChange {
  const r = startReplay(registry, parsed, state, ctx)
  for (const item of items) {
    const meta = normalizeSystemMetadata('systemMetadata' in item ? item.systemMetadata : undefined, ctx.time)
    let writes: AspectWrite[] | undefined
    try {
      writes = admit(r, item)
    } catch (err) {
      if (!(err instanceof CatalogError)) throw err
      r.change.itemChanges.push(0)
      r.change.itemErrors.push({ code: err.code, message: err.message, details: err.details })
      continue
    }
    r.change.itemChanges.push(applyItem(r, item, writes, meta))
    r.change.itemErrors.push(undefined)
  }
  return r.change
}
