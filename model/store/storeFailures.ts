/**
 * Store failures a client can meet while a Redis Cluster fails over or moves slots, pure: an error message of
 * ioredis, node-redis or Redis itself becomes the catalogue code that says what happened (503, retry-safe), or
 * undefined for anything else (a fault of the service). The gateway maps every error through this (a route's own
 * command, or a worker's reply) so that no failover or slot move answers 500.
 */
import type { ErrorCode } from '../errors.ts'

const KINDS: readonly [ErrorCode, RegExp, string][] = [
  // A slot is being migrated (ASK, TRYAGAIN), has just moved (MOVED), or a shard's search index is being placed
  // on the node its slot moved to (RediSearch: "Unknown Index name"); node-redis: "Cannot find node" when its slot
  // map names a node it has no client for yet.
  ['SLOT_MOVING', /^(ASK|MOVED|TRYAGAIN) |TRYAGAIN|Too many Cluster redirections|non local key|slots allocation group|Unknown Index name|no such index|Cannot find node/i,
    'the data this request needs is moving between cluster nodes (a slot migration); retry shortly'],
  // A master failed and its replica is not promoted yet, or slots are unassigned.
  ['CLUSTER_DOWN', /CLUSTERDOWN|MASTERDOWN|Cluster isn't ready|Failed to refresh slots cache|None of startup nodes is available|slot.*not served/i,
    'the Redis Cluster is failing over (a master is down and not replaced yet); retry shortly'],
  // The server is unreachable, restarting, loading, or was a master and is now a replica.
  // ("Command aborted due to connection close": ioredis, for a command in flight when its node went away; "The
  // client is offline", "Disconnects client", "Connection timeout", "All the root nodes are unavailable": node-redis.)
  ['UNAVAILABLE', /ECONNREFUSED|ECONNRESET|EPIPE|Connection is closed|Command aborted due to connection close|Socket closed unexpectedly|max retries per request|ETIMEDOUT|Command timed out|LOADING|READONLY|NOREPLICAS|The client is closed|The client is offline|Disconnects client|Connection timeout|All the root nodes are unavailable|Stream isn't writeable/i,
    'the backing store is unavailable; retry later'],
]

/** The catalogue code and message for a store failure `message`, or undefined when it is not one. */
export function storeFailure(message: string): { code: ErrorCode; message: string } | undefined {
  for (const [code, pattern, text] of KINDS) if (pattern.test(message)) return { code, message: text }
  return undefined
}
