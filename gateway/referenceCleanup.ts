/**
 * Hard delete across shards. Deleting an entity removes its own keys and outgoing edges in one apply on its
 * shard; the edges other entities hold to it live in their shards. Once a write hard-deleted an entity, this
 * writer finds every entity pointing to it (the incoming entries of every shard) and applies a `dropEdgesTo` item
 * to each, through the queues like any write, before the delete is answered: no relationship or lineage answer
 * names the deleted urn afterwards, in either direction. The sources' aspects are left as they are (as upstream's
 * graph does); a later restore of a source re-derives its edge to the urn, since the source still names it.
 */
import { SYSTEM_ACTOR, type ItemResult, type WriteItem } from '../model/jobs.ts'
import type { Model } from '../model/runtime.ts'
import { parseUrn } from '../model/urn.ts'
import type { Writer } from './writeQueue.ts'

/** The dropEdgesTo items for every entity that points to one of `targets`. */
export async function referenceItems(model: Model, targets: readonly string[]): Promise<WriteItem[]> {
  const items: WriteItem[] = []
  for (const target of targets) {
    const bySource = new Map<string, string[]>()
    for (const [type, sources] of await model.edges.incomingSources(target, model.registry.relationshipNames)) {
      for (const source of sources) bySource.set(source, [...(bySource.get(source) ?? []), type])
    }
    for (const [source, relationships] of bySource) {
      let entityType: string
      try {
        entityType = parseUrn(model.registry, source).entity.name
      } catch {
        continue // not an entity of this registry: nothing of it is stored
      }
      items.push({ op: 'dropEdgesTo', urn: source, entityType, target, relationships })
    }
  }
  return items
}

/** `inner`, plus the reference cleanup after every write that hard-deleted an entity. */
export function withReferenceCleanup(inner: Writer, model: Model): Writer {
  return {
    async submit(items: WriteItem[], actor: string): Promise<ItemResult[]> {
      const results = await inner.submit(items, actor)
      const deleted = [...new Set(results.filter((r) => r.hardDeleted).map((r) => r.urn))]
      if (deleted.length > 0) {
        const cleanup = await referenceItems(model, deleted)
        if (cleanup.length > 0) await inner.submit(cleanup, SYSTEM_ACTOR)
      }
      return results
    },
    depths: () => inner.depths(),
    close: () => inner.close(),
  }
}
