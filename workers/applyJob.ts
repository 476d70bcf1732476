/**
 * Applies one write job: items are grouped by entity (keeping their order); for each entity the worker reads its
 * state, derives the change with pure functions, and applies it in one compare-and-set script. A conflict (the
 * entity changed since it was read) recomputes; a job already applied to an entity (a retry after a crash) is
 * skipped there, so a retried job leaves the same state as one that succeeded at once. Index items (restate,
 * dropEdgesTo) go through the same compare-and-set: only workers change what is stored for an entity.
 */
import { computeChange } from '../model/derive/change.ts'
import type { ItemResult, JobResult, WriteItem, WriteJob } from '../model/jobs.ts'
import type { Registry } from '../model/registry.ts'
import type { EdgeStore } from '../model/store/edgeStore.ts'
import type { EntityStore } from '../model/store/entityStore.ts'
import type { Op } from '../model/store/ops.ts'
import { planChange, type PlanContext } from '../model/store/plan.ts'
import { dropEdgesOps, restateOps } from '../model/store/planRestate.ts'
import { parseUrn, type ParsedUrn } from '../model/urn.ts'

/** What applying needs. */
export interface ApplyDeps {
  registry: Registry
  store: EntityStore
  edges: EdgeStore
  plan: PlanContext
  /** Called once per compare-and-set conflict (metrics). */
  onConflict?: () => void
}

const MAX_ATTEMPTS = 50
/**
 * Entities of one job applied at once. All of them at once (a batch's job holds ~60) kept every one's state, ops
 * and encoded call alive until Redis had run them all, so that the young generation's collections copied tens of
 * MB each time (a quarter of the worker's CPU in the batch load); 8 lanes per job (with 16 partitions, ~128
 * entities per worker process) keep Redis as busy with a fraction of it: in `npm run bench:writes`, the batch's
 * worker CPU per dataset 1,007-1,046 -> 809-871 us and its rate 594 -> 655-704 datasets/s (4 and 16 lanes about
 * the same, 32 worse).
 */
const ENTITIES_IN_FLIGHT = 8

type Outcome = Omit<ItemResult, 'urn'>

/** Reads, plans and applies under the compare-and-set until it holds; `plan` answers the ops and the outcome. */
async function casLoop(deps: ApplyDeps, urn: string, applyId: string, read: () => Promise<{ rev: number }>, plan: (state: never) => { ops: Op[]; outcomes: Outcome[] }): Promise<Outcome[]> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const state = await read()
    const { ops, outcomes } = plan(state as never)
    if (ops.length === 0) return outcomes
    const applied = await deps.store.apply(urn, state.rev, applyId, ops)
    if (applied === 'applied') return outcomes
    if (applied === 'duplicate') return outcomes.map(() => ({ changes: 0 }))
    deps.onConflict?.()
  }
  throw new Error(`entity ${urn} kept changing under apply ${applyId}; gave up after ${MAX_ATTEMPTS} attempts`)
}

/** Applies consecutive aspect items (upsert, delete, deleteEntity, rollback) of one entity. */
function applyAspectItems(deps: ApplyDeps, parsed: ParsedUrn, items: WriteItem[], job: WriteJob, applyId: string): Promise<Outcome[]> {
  const needsHistory = items.some((i) => i.op === 'rollback')
  return casLoop(deps, parsed.urn, applyId, () => deps.store.state(parsed.urn, needsHistory), (state: Parameters<typeof computeChange>[2]) => {
    const change = computeChange(deps.registry, parsed, state, items, { actor: job.actor, time: job.time })
    // A refused item (failed patch or precondition) changed nothing and carries its error back.
    const outcomes = change.itemChanges.map((changes, k) => ({
      changes, ...(change.hardDeleted ? { hardDeleted: true } : {}), ...(change.itemErrors[k] ? { error: change.itemErrors[k] } : {}),
    }))
    return { ops: change.changeLog.length === 0 ? [] : planChange(deps.plan, change), outcomes }
  })
}

/** Applies one index item. */
async function applyIndexItem(deps: ApplyDeps, parsed: ParsedUrn, item: WriteItem, job: WriteJob, applyId: string): Promise<Outcome> {
  const { outgoing, incoming } = deps.registry.relationshipTypes(parsed.entity)
  if (item.op === 'restate') {
    const [outcome] = await casLoop(deps, parsed.urn, applyId, () => deps.store.indexed(parsed.urn, parsed.entity.name, outgoing), (indexed: Parameters<typeof restateOps>[2]) => {
      const { ops, restored, missing } = restateOps(deps.plan, parsed, indexed, item.aspects, job.time)
      return { ops, outcomes: [{ changes: 0, restored, missing }] }
    })
    // Incoming entries live in their sources' shards: drop those no source backs any more.
    await deps.edges.dropStaleIncoming(parsed.urn, incoming)
    return outcome!
  }
  if (item.op === 'dropEdgesTo') {
    const [outcome] = await casLoop(deps, parsed.urn, applyId, () => deps.store.state(parsed.urn), () => ({
      ops: dropEdgesOps(deps.plan, parsed.urn, item.target, item.relationships), outcomes: [{ changes: 0 }],
    }))
    return outcome!
  }
  throw new Error(`not an index item: ${item.op}`)
}

const isIndexItem = (item: WriteItem): boolean => item.op === 'restate' || item.op === 'dropEdgesTo'

/**
 * Applies the items of one entity in order; returns one outcome per item. Consecutive aspect items form one
 * apply; each index item is one. The n-th apply carries the id `<job id>#<n>`, so a retried job skips exactly
 * the applies that already happened.
 */
async function applyEntity(deps: ApplyDeps, urn: string, items: WriteItem[], job: WriteJob, jobId: string): Promise<Outcome[]> {
  const parsed = parseUrn(deps.registry, urn)
  const outcomes: Outcome[] = []
  for (let i = 0, n = 0; i < items.length; n++) {
    const applyId = `${jobId}#${n}`
    if (isIndexItem(items[i]!)) {
      outcomes.push(await applyIndexItem(deps, parsed, items[i]!, job, applyId))
      i++
      continue
    }
    let j = i
    while (j < items.length && !isIndexItem(items[j]!)) j++
    outcomes.push(...await applyAspectItems(deps, parsed, items.slice(i, j), job, applyId))
    i = j
  }
  return outcomes
}

/** Applies a whole job; entities are independent, so they are applied concurrently (ENTITIES_IN_FLIGHT at a time). */
export async function applyJob(deps: ApplyDeps, job: WriteJob, jobId: string): Promise<JobResult> {
  const byUrn = new Map<string, { items: WriteItem[]; positions: number[] }>()
  job.items.forEach((item, i) => {
    let group = byUrn.get(item.urn)
    if (!group) byUrn.set(item.urn, (group = { items: [], positions: [] }))
    group.items.push(item)
    group.positions.push(i)
  })
  const results: ItemResult[] = job.items.map((item) => ({ urn: item.urn, changes: 0 }))
  const groups = [...byUrn]
  let next = 0
  // Once an entity failed (the job fails with it), no lane starts another.
  let failed = false
  const lane = async () => {
    while (!failed && next < groups.length) {
      const [urn, group] = groups[next++]!
      try {
        const outcomes = await applyEntity(deps, urn, group.items, job, jobId)
        outcomes.forEach((outcome, k) => { Object.assign(results[group.positions[k]!]!, outcome) })
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(ENTITIES_IN_FLIGHT, groups.length) }, lane))
  return { results }
}
