/**
 * Rolling a run back within a replay: every aspect whose latest value the run wrote returns to the newest version
 * someone else wrote (versions of the run are dropped, newest first), or goes when there is none. An entity the run
 * created goes as a whole once only its key is left.
 */
import type { SystemMetadata } from '../../jobs.ts'
import type { Envelope } from '../envelope.ts'
import { logChange, type Replay } from './replay.ts'
import { removeAspect, removeEntity } from './versioning.ts'

/** Drops the run's versions of `aspect`, newest first; answers the newest version someone else wrote, if any. */
function unwindAspect(r: Replay, aspect: string, runId: string): Envelope | undefined {
  const { change } = r
  const history = r.histories.get(aspect) ?? new Map<number, Envelope>()
  let version = change.versions.get(aspect) ?? 0
  let restored: Envelope | undefined
  while (version > 0) {
    const candidate = history.get(version)
    change.steps.push({ kind: 'unarchive', aspect, version })
    history.delete(version)
    version--
    if (candidate && candidate.systemMetadata?.runId !== runId) {
      restored = candidate
      break
    }
  }
  if (version > 0) change.versions.set(aspect, version)
  else change.versions.delete(aspect)
  return restored
}

/** Rolls run `runId` back on the entity; answers the number of aspect changes. */
export function rollbackRun(r: Replay, runId: string, meta: SystemMetadata): number {
  const { change, parsed: { entity } } = r
  let count = 0
  for (const aspect of [...change.latest.keys()]) {
    const current = change.latest.get(aspect)!
    if (current.systemMetadata?.runId !== runId) continue
    const restored = unwindAspect(r, aspect, runId)
    if (restored) {
      change.latest.set(aspect, restored)
      logChange(r, { changeType: 'UPSERT', aspectName: aspect, aspect: restored.value, previousAspectValue: current.value, systemMetadata: meta })
      count++
    } else if (aspect !== entity.keyAspect) {
      count += removeAspect(r, aspect, meta)
    }
  }
  // The run created the entity: once every other aspect is gone, the key goes too.
  const keyEnvelope = change.latest.get(entity.keyAspect)
  if (keyEnvelope?.systemMetadata?.runId === runId && [...change.latest.keys()].every((a) => a === entity.keyAspect)) {
    count += removeEntity(r, meta)
  }
  return count
}
