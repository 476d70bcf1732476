/**
 * Lineage for impact analysis: a breadth-first walk over lineage edges (DownstreamOf by default) up to `maxHops`,
 * upstream (what an entity is derived from) or downstream (what is derived from it). Each entity is reported once,
 * at the fewest hops it is reached in, so cycles end the walk instead of looping.
 */
import type { Direction } from './store/edgeStore.ts'

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM'

/** Edges point from the derived entity to its source, so upstream follows them outwards. */
export function edgeDirection(direction: LineageDirection): Direction {
  return direction === 'UPSTREAM' ? 'OUTGOING' : 'INCOMING'
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
