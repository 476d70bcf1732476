/**
 * What a hard delete leaves for other entities. Deleting an entity removes its own keys and outgoing edges in one
 * apply on its shard; the edges other entities hold to it live in their shards. After a write removed entities,
 * every entity pointing to one of them gets a `dropEdgesTo` item, applied through the queues like any write, so
 * no relationship or lineage answer names the deleted urn afterwards, in either direction. The sources' aspects
 * are left as they are (as upstream's graph does); a later restore of a source re-derives its edge to the urn,
 * since the source still names it.
 *
 * Who runs it: the worker that applied the write, once applied (workers/followUps.ts); a gateway waiting for the
 * write waits for those follow-ups too before answering.
 */
import { removesEntity } from '../hardDelete.ts'
import type { ItemResult, WriteItem } from '../jobs.ts'
import type { Registry } from '../registry.ts'
import type { EdgeStore } from '../store/edgeStore.ts'
import type { EntityStore } from '../store/entityStore.ts'
import { parseUrn } from '../urn.ts'

export interface ReferenceDeps {
  registry: Registry
  store: EntityStore
  edges: EdgeStore
}

/**
 * Urns a write removed as a whole: those its results say it hard-deleted, and those of removing items that now
 * hold nothing (a job retried after a crash skips the applies already made, and its results then say nothing).
 */
export async function removedEntities(deps: ReferenceDeps, items: readonly WriteItem[], results: readonly ItemResult[]): Promise<string[]> {
  const removed = new Set(results.filter((r) => r.hardDeleted).map((r) => r.urn))
  const asked = new Set(items.filter((item, i) => !results[i]?.error && removesEntity(deps.registry, item)).map((i) => i.urn))
  for (const urn of asked) {
    if (!removed.has(urn) && (await deps.store.latest(urn)).size === 0) removed.add(urn)
  }
  return [...removed]
}

/** The dropEdgesTo items for every entity that points to one of `targets`. */
export async function referenceItems(deps: ReferenceDeps, targets: readonly string[]): Promise<WriteItem[]> {
  const items: WriteItem[] = []
  for (const target of targets) {
    const bySource = new Map<string, string[]>()
    for (const [type, sources] of await deps.edges.incomingSources(target, deps.registry.relationshipNames)) {
      for (const source of sources) bySource.set(source, [...(bySource.get(source) ?? []), type])
    }
    for (const [source, relationships] of bySource) {
      let entityType: string
      try {
        entityType = parseUrn(deps.registry, source).entity.name
      } catch {
        continue // not an entity of this registry: nothing of it is stored
      }
      items.push({ op: 'dropEdgesTo', urn: source, entityType, target, relationships })
    }
  }
  return items
}

/** The cleanup items a write needs once applied (none when it removed no entity). */
export async function cleanupAfter(deps: ReferenceDeps, items: readonly WriteItem[], results: readonly ItemResult[]): Promise<WriteItem[]> {
  const removed = await removedEntities(deps, items, results)
  return removed.length === 0 ? [] : referenceItems(deps, removed)
}
