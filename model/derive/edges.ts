/**
 * Relationship edges of an entity: every urn found at a `relationship`-annotated path of its latest aspects, as
 * `{type, target}`, and the difference between two edge sets (what a change adds and removes). Records annotated
 * `fieldEdges` (fine-grained lineage) give edges between other entities (schema fields): `fieldEdgesOf`.
 */
import { walkAnnotated } from '../annotations.ts'
import type { EntitySpec } from '../entities.ts'
import type { Registry } from '../registry.ts'

export interface Edge {
  type: string
  target: string
}

/** An edge whose source is not the entity carrying the aspect (schemaField -> schemaField). */
export interface SourcedEdge extends Edge {
  source: string
}

const id = (e: Edge): string => `${e.type}\u0000${e.target}`
const sourcedId = (e: SourcedEdge): string => `${e.source}\u0000${id(e)}`

/** The distinct outgoing edges of an entity with these aspects (none when it has no aspects). */
export function edgesOf(registry: Registry, entity: EntitySpec, urn: string, aspects: ReadonlyMap<string, unknown>): Edge[] {
  const seen = new Map<string, Edge>()
  for (const spec of registry.versionedAspects(entity)) {
    const value = aspects.get(spec.name)
    if (value === undefined) continue
    walkAnnotated(spec.schema, value, (node, found) => {
      if (!node.relationship || typeof found !== 'string' || found === urn) return
      const edge = { type: node.relationship.name, target: found }
      seen.set(id(edge), edge)
    })
  }
  return [...seen.values()]
}

/**
 * The distinct edges an entity's aspects declare between other entities: for each `fieldEdges` record, every urn of
 * its `from` list points to every urn of its `to` list (a downstream column DownstreamOf each upstream column).
 */
export function fieldEdgesOf(registry: Registry, entity: EntitySpec, aspects: ReadonlyMap<string, unknown>): SourcedEdge[] {
  const seen = new Map<string, SourcedEdge>()
  const urns = (v: unknown): string[] => (Array.isArray(v) ? v.filter((u): u is string => typeof u === 'string') : [])
  for (const spec of registry.versionedAspects(entity)) {
    const value = aspects.get(spec.name)
    if (value === undefined) continue
    walkAnnotated(spec.schema, value, (node, found) => {
      if (!node.fieldEdges || typeof found !== 'object') return
      const record = found as Record<string, unknown>
      for (const source of urns(record[node.fieldEdges.from])) {
        for (const target of urns(record[node.fieldEdges.to])) {
          if (source === target) continue
          const edge = { source, type: node.fieldEdges.name, target }
          seen.set(sourcedId(edge), edge)
        }
      }
    })
  }
  return [...seen.values()]
}

/** Edges in `after` but not `before` (added) and in `before` but not `after` (removed). */
export function diffEdges(before: readonly Edge[], after: readonly Edge[]): { added: Edge[]; removed: Edge[] } {
  return diffBy(before, after, id)
}

/** The same for sourced edges. */
export function diffSourcedEdges(before: readonly SourcedEdge[], after: readonly SourcedEdge[]): { added: SourcedEdge[]; removed: SourcedEdge[] } {
  return diffBy(before, after, sourcedId)
}

function diffBy<T>(before: readonly T[], after: readonly T[], key: (e: T) => string): { added: T[]; removed: T[] } {
  const beforeIds = new Set(before.map(key))
  const afterIds = new Set(after.map(key))
  return {
    added: after.filter((e) => !beforeIds.has(key(e))),
    removed: before.filter((e) => !afterIds.has(key(e))),
  }
}
