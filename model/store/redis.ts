/**
 * Redis connections, to one server (REDIS_URL) or to a Redis Cluster (REDIS_CLUSTER seed nodes): the rest of the
 * code sees one client type and never asks which. Reads fail fast when Redis is unreachable (the API answers 503);
 * queue and worker connections wait for Redis to come back (BullMQ requires `maxRetriesPerRequest: null`).
 */
import type { Writable } from 'node:stream'
import { Cluster, Redis, type RedisOptions } from 'ioredis'
import type { Config } from '../config.ts'
import { commonPrefix, globPrefix, globToRegExp } from './glob.ts'

/** A connection to one server or to a cluster (same commands; a cluster routes each by its keys' slot). */
export type RedisClient = Redis | Cluster

/** Where Redis is: the part of the configuration connections are made from. */
export type RedisTarget = Pick<Config, 'redisUrl' | 'redisCluster'>

/**
 * Redirections (MOVED, ASK, TRYAGAIN) a cluster command follows before it fails. TRYAGAIN (a multi-key command or
 * script whose keys a slot migration has split between two nodes) is retried every `retryDelayOnTryAgain` ms and
 * lasts until the slot's last keys moved: a slot holding a whole shard takes seconds, so the budget is ~20 s.
 */
const MAX_REDIRECTIONS = 200

/**
 * The unix socket a REDIS_URL names, or undefined for a `redis://` URL: a path (`/run/redis/redis.sock`, as ioredis
 * takes it) reaches a Redis on the same machine without TCP, which costs both sides less CPU per round trip.
 */
export function socketPathOf(redisUrl: string): string | undefined {
  return redisUrl.startsWith('/') ? redisUrl : undefined
}

function connect(target: RedisTarget, options: RedisOptions, autoPipelining: boolean): RedisClient {
  if (target.redisCluster.length > 0) {
    const nodes = target.redisCluster.map((node) => {
      const cut = node.lastIndexOf(':')
      return { host: node.slice(0, cut), port: Number(node.slice(cut + 1)) }
    })
    const cluster = new Cluster(nodes, {
      redisOptions: options,
      // Not on a cluster: ioredis groups an automatic pipeline by the nodes of its slots when a command is queued,
      // and refuses to send it ("same slots allocation group") when a slot moved meanwhile, which during a
      // rebalance failed commands that a plain send redirects (MOVED/ASK) and completes.
      enableAutoPipelining: false,
      enableReadyCheck: true,
      // During a failover a command meets CLUSTERDOWN or a closed connection until the replica is promoted: it is
      // sent again every 100 ms after the slot map is read again, so it goes through within ~100 ms of the promotion.
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
      maxRedirections: MAX_REDIRECTIONS,
      retryDelayOnFailover: 100,
      slotsRefreshTimeout: 2000,
    })
    return quiet(autoPipelining ? writtenPerTick(cluster) : cluster)
  }
  if (!target.redisUrl) throw new Error('REDIS_URL (or REDIS_CLUSTER) is not set')
  return quiet(new Redis(target.redisUrl, { ...options, enableAutoPipelining: autoPipelining }))
}

/**
 * A cluster client whose commands of one tick leave in one socket write per node. ioredis writes each command of a
 * cluster to its node's socket at once (its automatic pipelining is off there, see `connect`), one system call per
 * command: a query asks every shard for its log's new entries and its part of the page, and on a cluster of 16
 * shards those writes took a sixth of the gateway's CPU. So from the first command of a tick every master's socket
 * is corked, and uncorked once the tick's callbacks (the promise chains started with it) have run: each node then
 * gets the tick's commands as one write. ioredis still routes, redirects (MOVED, ASK, TRYAGAIN) and retries every
 * command itself; a command it sends later (a redirection, a node not connected yet) is written when it is sent.
 */
function writtenPerTick(cluster: Cluster): Cluster {
  const send = cluster.sendCommand.bind(cluster)
  let corked: Writable[] | undefined
  cluster.sendCommand = (...args: Parameters<Cluster['sendCommand']>) => {
    if (!corked) {
      const held: Writable[] = (corked = [])
      for (const node of cluster.nodes('master')) {
        const stream = node.stream as Writable | undefined
        if (stream && !stream.destroyed && stream.writable) { stream.cork(); held.push(stream) }
      }
      process.nextTick(() => {
        corked = undefined
        for (const stream of held) stream.uncork()
      })
    }
    return send(...args)
  }
  return cluster
}

/** A connection for API reads and writes: a command fails after a few reconnection attempts. */
export function connectForRequests(target: RedisTarget, name = 'svc'): RedisClient {
  return connect(target, { connectionName: name, maxRetriesPerRequest: 2 }, true)
}

/** A connection for queues and workers: commands wait for Redis to come back. */
export function connectForQueues(target: RedisTarget, name = 'svc-queue'): RedisClient {
  return connect(target, { connectionName: name, maxRetriesPerRequest: null, enableReadyCheck: true }, false)
}

/**
 * A worker's connection to the store: commands wait for Redis to come back, and the reads a worker issues together
 * (an entity's state, its index entries) go out as one pipeline on one server, as one write per node on a cluster
 * (writtenPerTick).
 */
export function connectForStore(target: RedisTarget, name = 'svc-store'): RedisClient {
  return connect(target, { connectionName: name, maxRetriesPerRequest: null, enableReadyCheck: true }, true)
}

/** Whether `redis` is a cluster client. */
export function isCluster(redis: RedisClient): redis is Cluster {
  return redis instanceof Cluster
}

/** The master servers behind a client (itself for one server): where SCAN, SCRIPT LOAD and MODULE LIST go. */
export async function masters(redis: RedisClient): Promise<Redis[]> {
  if (!isCluster(redis)) return [redis]
  if (redis.status !== 'ready') await new Promise<void>((resolve, reject) => { redis.once('ready', resolve); redis.once('end', () => reject(new Error('cluster connection ended'))) })
  return redis.nodes('master')
}

/**
 * The members of each sorted set of `keys` (all in one slot), in order. One EXISTS of them comes first: sets that an
 * entity mostly lacks (one per relationship type, a few dozen) then cost one command when none exists.
 */
export async function membersIfAny(redis: RedisClient, keys: readonly string[]): Promise<string[][]> {
  if (keys.length === 0 || await redis.exists(...keys) === 0) return keys.map((): string[] => [])
  return Promise.all(keys.map((key) => redis.zrange(key, 0, -1)))
}

/**
 * Every key matching any of `patterns` on every master, in one SCAN of the keyspace: MATCH asks only for the
 * patterns' common literal prefix (a test Redis ends at its trailing `*`), and each key is tested against the
 * patterns here (glob.ts).
 */
export async function scanKeysMatching(redis: RedisClient, patterns: readonly string[], onBatch: (keys: string[]) => Promise<void>): Promise<void> {
  if (patterns.length === 0) return
  const tests = patterns.map(globToRegExp)
  const prefix = commonPrefix(patterns.map(globPrefix)).replace(/[*?[\]\\]/g, '\\$&')
  await scanKeys(redis, `${prefix}*`, async (keys) => {
    const matching = keys.filter((key) => tests.some((t) => t.test(key)))
    if (matching.length > 0) await onBatch(matching)
  })
}

/** Every key matching `pattern` on every master (SCAN, never KEYS). */
export async function scanKeys(redis: RedisClient, pattern: string, onBatch: (keys: string[]) => Promise<void>): Promise<void> {
  for (const node of await masters(redis)) {
    for await (const batch of node.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>) {
      if (batch.length > 0) await onBatch(batch)
    }
  }
}

/**
 * Connection errors surface where commands fail (503 to clients, retries in workers); the connection's own error
 * events are expected while Redis restarts and are not worth an unhandled-error report each.
 */
function quiet<T extends RedisClient>(redis: T): T {
  redis.on('error', () => {})
  return redis
}

/** Whether the server (every master of a cluster) has the search module loaded (MODULE LIST). */
export async function hasSearchModule(redis: RedisClient): Promise<boolean> {
  const nodes = await masters(redis)
  const found = await Promise.all(nodes.map(async (node) => {
    const modules = (await node.call('MODULE', 'LIST')) as unknown[][]
    return modules.some((entry) => {
      const fields = entry as unknown[]
      const i = fields.findIndex((f) => String(f) === 'name')
      const name = i >= 0 ? String(fields[i + 1]).toLowerCase() : ''
      return name === 'search' || name === 'ft'
    })
  }))
  return found.length > 0 && found.every(Boolean)
}
