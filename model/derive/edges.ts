/**
 * Relationship edges of an entity: every urn found at a `relationship`-annotated path of its latest aspects, as
 * `{type, target}`, and the difference between two edge sets (what a change adds and removes).
 */
import { walkAnnotated } from '../annotations.ts'
import type { EntitySpec } from '../entities.ts'
import type { Registry } from '../registry.ts'

export interface Edge {
  type: string
  target: string
}

const id = (e: Edge): string => `${e.type}\u0000${e.target}`

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

/** Edges in `after` but not `before` (added) and in `before` but not `after` (removed). */
export function diffEdges(before: readonly Edge[], after: readonly Edge[]): { added: Edge[]; removed: Edge[] } {
  const beforeIds = new Set(before.map(id))
  const afterIds = new Set(after.map(id))
  return {
    added: after.filter((e) => !beforeIds.has(id(e))),
    removed: before.filter((e) => !afterIds.has(id(e))),
  }
}
