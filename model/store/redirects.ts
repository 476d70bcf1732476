/**
 * Where to send a keyed command again after a Redis Cluster redirected it, for the few places that send a
 * pipeline ioredis does not redirect by itself (a script followed by WAIT: the WAIT succeeds, so ioredis hands the
 * script's ASK/MOVED/TRYAGAIN back). Single commands are redirected by ioredis itself (redis.ts: maxRedirections).
 *   - ASK <slot> <host:port>: the slot is migrating and the keys are (or will be) on that node: send it there,
 *     preceded by ASKING.
 *   - MOVED <slot> <host:port>: the slot has moved: send it to that node (and let the client refresh its map).
 *   - TRYAGAIN: the script's keys are split between the two nodes of a migrating slot (Redis never runs it in
 *     part): wait a moment and send it again the usual way. CLUSTERDOWN (a failover): the same.
 *   - "Script attempted to access a non local key": a script that started on the migrating node (all its KEYS
 *     were there) touched a key that is not, or no longer, there: one it emptied and fills again within the
 *     script (a document replaced, a posting restated), or a key it names itself (a search's postings). Redis
 *     stops the script there and keeps what it had done; the apply script bumps the entity's rev only at its end,
 *     so sending it again (when the slot has moved) runs every op again (they are idempotent) and completes the
 *     change. Read scripts are simply sent again.
 */
import type { Redis } from 'ioredis'
import { isCluster, type RedisClient } from './redis.ts'

/** How long a command keeps being sent again while its slot moves or the cluster fails over. */
export const SLOT_MOVE_BUDGET_MS = 20_000
const PAUSE_MS = 100

/** Where to send next: a node named by the redirection (undefined: the cluster client's own routing). */
export interface Route {
  node: Redis | undefined
  asking: boolean
}

/** The redirection an error is, pure: its kind and, for ASK and MOVED, the node it names. */
export function redirection(message: string): { kind: 'ASK' | 'MOVED'; host: string; port: number } | { kind: 'PAUSE' } | undefined {
  const named = /^(ASK|MOVED) \d+ (.+):(\d+)$/.exec(message)
  if (named) return { kind: named[1] as 'ASK' | 'MOVED', host: named[2]!, port: Number(named[3]) }
  if (/^(TRYAGAIN|CLUSTERDOWN)|non local key/.test(message)) return { kind: 'PAUSE' }
  return undefined
}

/** The route to send a command on after `err`, or undefined when `err` is no redirection (or not on a cluster). */
export async function rerouted(redis: RedisClient, err: Error): Promise<Route | undefined> {
  const r = redirection(err.message)
  if (!r || !isCluster(redis)) return undefined
  if (r.kind !== 'PAUSE') {
    const node = redis.nodes('master').find((n) => n.options.host === r.host && n.options.port === r.port)
    if (node) return { node, asking: r.kind === 'ASK' }
    // A node the client has not met yet (just added): learn the cluster's map again and go the usual way.
    void redis.refreshSlotsCache()
  }
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
  return { node: undefined, asking: false }
}
