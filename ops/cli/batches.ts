/** Batching for the ingest command: proposals in batches of N, never splitting one record's proposals. */
import type { Unit } from './records.ts'

/**
 * Groups units into batches of at most `size` proposals without splitting a unit; a unit larger than `size`
 * travels alone.
 */
export function batchesOf(units: Unit[], size: number): Unit[][] {
  const batches: Unit[][] = []
  let current: Unit[] = []
  let count = 0
  for (const unit of units) {
    if (count > 0 && count + unit.proposals.length > size) {
      batches.push(current)
      current = []
      count = 0
    }
    current.push(unit)
    count += unit.proposals.length
  }
  if (current.length > 0) batches.push(current)
  return batches
}
