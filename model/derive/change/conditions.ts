/**
 * Conditional items (`If-Version-Match`, `If-None-Match: *`), checked against the state as replayed so far: a
 * failed condition throws PRECONDITION_FAILED and the item changes nothing.
 */
import { fail } from '../../errors.ts'
import type { WriteCondition } from '../../jobs.ts'
import type { Replay } from './replay.ts'

/** The aspect's version as reads report it: its number of distinct values so far, 0 when it does not exist. */
export function currentVersion(r: Replay, aspect: string): number {
  return r.change.latest.has(aspect) ? (r.change.versions.get(aspect) ?? 0) + 1 : 0
}

/** Throws PRECONDITION_FAILED unless `condition` (if any) holds. */
export function checkCondition(r: Replay, condition: WriteCondition | undefined): void {
  if (!condition) return
  const current = currentVersion(r, condition.aspect)
  if (condition.ifNoneMatch && current > 0) {
    throw fail('PRECONDITION_FAILED', `${condition.aspect} of ${r.parsed.urn} exists (version ${current}) and If-None-Match is *; nothing was written`,
      [{ path: 'headers.If-None-Match', message: `current version ${current}` }])
  }
  if (condition.ifVersionMatch !== undefined && condition.ifVersionMatch !== String(current)) {
    throw fail('PRECONDITION_FAILED', `${condition.aspect} of ${r.parsed.urn} is at version ${current}, not ${condition.ifVersionMatch}; nothing was written`,
      [{ path: 'headers.If-Version-Match', message: `current version ${current}` }])
  }
}
