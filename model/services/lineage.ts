/**
 * Lineage for impact analysis: a breadth-first walk over lineage edges up to `maxHops`, upstream (what an entity is
 * derived from) or downstream (what is derived from it). Each entity is reported once, at the fewest hops it is
 * reached in, so cycles end the walk instead of looping. Which relationships are lineage, and which way each one
 * points, comes from the registry's annotations: dataset -> job -> dataset, chart -> dataset, and schemaField ->
 * schemaField (column lineage) are all walked alike.
 */
import { fieldEdgesOf } from '../derive/edges.ts'
import type { Registry } from '../registry.ts'
import type { Direction } from '../store/edgeStore.ts'
import { splitTuple, urnId, urnTypeSegment as urnEntityType } from '../urn.ts'

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM'

/** Edges of upstream-pointing relationships go from the derived entity to its source: upstream follows them outwards. */
export function edgeDirection(direction: LineageDirection): Direction {
  return direction === 'UPSTREAM' ? 'OUTGOING' : 'INCOMING'
}

/** One hop's edge reads: these relationship types in that direction. */
export interface LineageStep {
  direction: Direction
  types: string[]
}

/**
 * The edge reads of one hop `direction`: upstream-pointing relationships (DownstreamOf, Consumes) outwards and
 * downstream-pointing ones (Produces) inwards for UPSTREAM, the reverse for DOWNSTREAM. `types` narrows the walk
 * (default: every lineage relationship); a type not marked as lineage is taken as upstream-pointing.
 */
export function lineageSteps(registry: Registry, direction: LineageDirection, types?: readonly string[]): LineageStep[] {
  const downstreamPointing = new Set(registry.lineage.downstream)
  const chosen = types ?? [...registry.lineage.upstream, ...registry.lineage.downstream]
  const forward = chosen.filter((t) => !downstreamPointing.has(t))
  const backward = chosen.filter((t) => downstreamPointing.has(t))
  const reverse = (d: Direction): Direction => (d === 'OUTGOING' ? 'INCOMING' : 'OUTGOING')
  return [
    { direction: edgeDirection(direction), types: forward },
    { direction: reverse(edgeDirection(direction)), types: backward },
  ].filter((s) => s.types.length > 0)
}

export interface LineageResult {
  entities: { urn: string; hops: number }[]
  /** More entities exist beyond the limit. */
  truncated: boolean
}

/** Walks from `start`; `neighbours` answers one hop for a frontier. */
export async function walkLineage(
  start: string, maxHops: number, limit: number,
  neighbours: (frontier: string[]) => Promise<string[][]>,
): Promise<LineageResult> {
  const seen = new Set([start])
  const entities: { urn: string; hops: number }[] = []
  let frontier = [start]
  for (let hops = 1; hops <= maxHops && frontier.length > 0; hops++) {
    const next: string[] = []
    const found = await neighbours(frontier)
    for (const list of found) {
      for (const urn of list) {
        if (seen.has(urn)) continue
        seen.add(urn)
        if (entities.length >= limit) return { entities, truncated: true }
        entities.push({ urn, hops })
        next.push(urn)
      }
    }
    frontier = next
  }
  return { entities, truncated: false }
}

/** What the lineage walk reads: one hop of stored edges, and the latest aspect values of entities. */
export interface LineageReads {
  neighbours(urns: readonly string[], direction: Direction, types: readonly string[]): Promise<string[][]>
  latestValues(urns: readonly string[]): Promise<Map<string, unknown>[]>
}

/**
 * One hop of lineage for each urn of `frontier`. Entity urns follow stored edges (`lineageSteps`). Column urns
 * (schemaField) follow the fine-grained lineage of the aspects that can name them: those of the column's parent
 * dataset and of its one-hop lineage neighbours (the job that writes it, the datasets and jobs that read it),
 * derived from their `fieldEdges` annotations at read time, plus any stored edges of the column itself.
 */
export async function lineageHop(
  registry: Registry, frontier: readonly string[], direction: LineageDirection, types: readonly string[] | undefined, reads: LineageReads,
): Promise<string[][]> {
  const steps = lineageSteps(registry, direction, types)
  const stored = await Promise.all(steps.map((s) => reads.neighbours(frontier, s.direction, s.types)))
  const result = frontier.map((_, i) => stored.flatMap((perStep) => perStep[i]!))
  const columns = frontier.map((urn, i) => ({ urn, i, parent: parentOfField(registry, urn) })).filter((c) => c.parent !== undefined)
  if (columns.length === 0) return result
  const parents = [...new Set(columns.map((c) => c.parent!))]
  const around = await Promise.all(lineageSteps(registry, direction).map((s) => reads.neighbours(parents, s.direction, s.types)))
  const carriers = [...new Set([...parents, ...around.flat(2)])]
  const values = await reads.latestValues(carriers)
  const edges = carriers.flatMap((urn, i) => {
    const entity = registry.findEntity(urnEntityType(urn) ?? '')
    return entity ? fieldEdgesOf(registry, entity, values[i]!) : []
  }).filter((e) => !types || types.includes(e.type))
  for (const c of columns) {
    const next = direction === 'UPSTREAM'
      ? edges.filter((e) => e.source === c.urn).map((e) => e.target)
      : edges.filter((e) => e.target === c.urn).map((e) => e.source)
    result[c.i]!.push(...next)
  }
  return result
}

/** The parent (dataset, chart ...) of a schemaField urn, or undefined for any other urn. */
function parentOfField(registry: Registry, urn: string): string | undefined {
  if (registry.findEntity(urnEntityType(urn) ?? '')?.name !== 'schemaField') return undefined
  return splitTuple(urnId(urn))?.[0]
}
