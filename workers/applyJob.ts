/**
 * Applies one write job: items are grouped by entity (keeping their order); for each entity the worker reads its
 * state, derives the change with pure functions, and applies it in one compare-and-set script. A conflict (the
 * entity changed since it was read) recomputes; a job already applied to an entity (a retry after a crash) is
 * skipped there, so a retried job leaves the same state as one that succeeded at once.
 */
import { computeChange } from '../model/derive/change.ts'
import type { ItemError, ItemResult, JobResult, WriteItem, WriteJob } from '../model/jobs.ts'
import type { Registry } from '../model/registry.ts'
import type { EntityStore } from '../model/store/entityStore.ts'
import { planChange, type PlanContext } from '../model/store/plan.ts'
import { parseUrn } from '../model/urn.ts'

/** What applying needs. */
export interface ApplyDeps {
  registry: Registry
  store: EntityStore
  plan: PlanContext
  /** Called once per compare-and-set conflict (metrics). */
  onConflict?: () => void
}

const MAX_ATTEMPTS = 50

/** Applies the items of one entity; returns the number of changes per item, and why an item was refused. */
async function applyEntity(deps: ApplyDeps, urn: string, items: WriteItem[], job: WriteJob, jobId: string): Promise<{ changes: number[]; errors: (ItemError | undefined)[] }> {
  const parsed = parseUrn(deps.registry, urn)
  const needsHistory = items.some((i) => i.op === 'rollback')
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const state = await deps.store.state(urn, needsHistory)
    const change = computeChange(deps.registry, parsed, state, items, { actor: job.actor, time: job.time })
    const done = { changes: change.itemChanges, errors: change.itemErrors }
    if (change.changeLog.length === 0) return done
    const incoming = change.hardDeleted ? await deps.store.incoming(urn, deps.registry.relationshipNames) : undefined
    const ops = planChange(deps.plan, change, incoming)
    const outcome = await deps.store.apply(urn, state.rev, jobId, ops)
    if (outcome === 'applied') return done
    if (outcome === 'duplicate') return { changes: items.map(() => 0), errors: [] }
    deps.onConflict?.()
  }
  throw new Error(`entity ${urn} kept changing under job ${jobId}; gave up after ${MAX_ATTEMPTS} attempts`)
}

/** Applies a whole job; entities are independent, so they are applied concurrently. */
export async function applyJob(deps: ApplyDeps, job: WriteJob, jobId: string): Promise<JobResult> {
  const byUrn = new Map<string, { items: WriteItem[]; positions: number[] }>()
  job.items.forEach((item, i) => {
    let group = byUrn.get(item.urn)
    if (!group) byUrn.set(item.urn, (group = { items: [], positions: [] }))
    group.items.push(item)
    group.positions.push(i)
  })
  const results: ItemResult[] = job.items.map((item) => ({ urn: item.urn, changes: 0 }))
  await Promise.all([...byUrn].map(async ([urn, group]) => {
    const { changes, errors } = await applyEntity(deps, urn, group.items, job, jobId)
    changes.forEach((n, k) => { results[group.positions[k]!]!.changes = n })
    errors.forEach((e, k) => { if (e) results[group.positions[k]!]!.error = e })
  }))
  return { results }
}
