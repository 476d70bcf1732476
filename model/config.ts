/**
 * Configuration from environment variables, read once at start-up. Every variable is documented in the README's
 * configuration table; defaults suit a local run.
 */

import { CANONICAL_NAMESPACE, checkNamespace, type Namespace } from './namespace.ts'

export type SearchEngineChoice = 'auto' | 'native' | 'redisearch'

/**
 * Facet values a search answer reports per field unless SEARCH_FACET_VALUES says otherwise: upstream's default
 * (`maxTermBucketSize`, 20). The answer's cost grows with it (each value shown is spelled, shaped and sent).
 */
export const DEFAULT_FACET_VALUES = 20
/** The most SEARCH_FACET_VALUES may be. */
export const MAX_FACET_VALUES = 1000

export interface Config {
  /** Redis to use; empty means "launch an embedded redis-server" (ops/main.ts only, and only without redisCluster). */
  redisUrl: string
  /** Seed nodes (`host:port`) of a Redis Cluster (REDIS_CLUSTER); empty: a standalone server (redisUrl). */
  redisCluster: string[]
  /** Shards the data is cut into (SHARDS), fixed per deployment: 1 by default on one server, 16 on a cluster. */
  shards: number
  /** Replica acknowledgements an apply waits for before a write counts as applied (REPLICA_ACKS; 0: none). */
  replicaAcks: number
  /** How long an apply waits for those acknowledgements (REPLICA_ACK_TIMEOUT_MS). */
  replicaAckTimeoutMs: number
  keyPrefix: string
  partitions: number
  host: string
  port: number
  searchEngine: SearchEngineChoice
  /**
   * Native engine: members at which a posting keeps a bitmap of its documents, and the largest result whose facets
   * are counted from its documents' numbers rather than from its bitmap, fewer where the shard's bitmaps are
   * smaller than their entries (search-2.lua) (NATIVE_BITMAP_MIN); each of S shards uses 1/S of it.
   */
  nativeBitmapMin: number
  /**
   * Native engine: documents a word or a facet value needs for its facet counts to be kept in each gateway rather
   * than counted per query from its matches (NATIVE_TALLY_MIN; model/search/native/facetTallies.ts).
   */
  nativeTallyMin: number
  /**
   * Time a gateway spends at most, before it reports ready, asking itself queries that compile the query code and
   * make what the first queries would (SEARCH_WARMUP_MS, 0: none; model/search/warmQueries.ts). Only with an engine
   * that answers in the gateway (native), and only for types with at least NATIVE_TALLY_MIN documents.
   */
  searchWarmUpMs: number
  /**
   * Distinct values a string condition may match in one query, summed over the shards (each shard answers at most
   * its share); more is FILTER_TOO_BROAD (MAX_FILTER_VALUES). The native engine bounds START_WITH, CONTAIN, END_WITH,
   * the ranges and word prefixes; the redisearch engine the ranges (the others are wildcards the module matches).
   */
  maxFilterValues: number
  /** Values each facet of a search answer reports at most, the most frequent (SEARCH_FACET_VALUES; upstream's 20). */
  facetValues: number
  /**
   * Redisearch engine: seconds between the module's garbage collections of its indexes (REDISEARCH_GC_INTERVAL,
   * REDISEARCH_GC_INTERVAL_DEFAULT; 0: leave the module's own setting).
   */
  redisearchGcInterval: number
  writeTimeoutMs: number
  maxQueueDepth: number
  maxBodyBytes: number
  authEnabled: boolean
  /** A bootstrap admin token accepted besides the stored ones (ADMIN_TOKEN); empty: none. */
  adminToken: string
  /** Folder of the embedded redis-server's append-only file. */
  dataDir: string
  /** Port of the embedded redis-server (0: a free one). */
  embeddedRedisPort: number
  appendFsync: 'always' | 'everysec' | 'no'
  /**
   * The embedded redis-server's `auto-aof-rewrite-percentage` (AOF_REWRITE_PERCENTAGE): how much its append-only
   * file grows past its last rewrite before the next one (AOF_REWRITE_PERCENTAGE_DEFAULT).
   */
  aofRewritePercentage: number
  /** The embedded redis-server's scheduling priority (EMBEDDED_REDIS_NICE, EMBEDDED_REDIS_NICE_DEFAULT). */
  embeddedRedisNice: number
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  /**
   * A worker's job lock; a live worker renews it every half of it. A killed worker's job is retried once the lock
   * expired and the next stalled check ran: within lockDurationMs + stalledIntervalMs.
   */
  lockDurationMs: number
  stalledIntervalMs: number
  changeLogMaxLen: number
  registryFile: string
  redisearchModule: string
  dashboardPort: number
  /** Port of a worker process's /metrics and /health (0: none). */
  metricsPort: number
  /** URN_NAMESPACE, RECORD_NAMESPACE, PROTOCOL_HEADER: the names urns, records and the protocol header carry. */
  namespace: Namespace
  /** An aspect the registry does not know, of a known entity type: refused (400) or stored unindexed (UNKNOWN_ASPECTS). */
  unknownAspects: 'refuse' | 'store'
  /** A field a known aspect's model does not declare: kept as sent, dropped (both reported), or refused (400) (UNKNOWN_FIELDS). */
  unknownFields: 'keep' | 'drop' | 'refuse'
}

/**
 * `auto-aof-rewrite-percentage` of the redis-servers the project starts (embedded, local clusters, compose.yaml's):
 * Redis's own default, 100, rewrites the append-only file whenever it has grown by its last rewrite's size. That
 * rewrite's base is a compact snapshot, and a write's effects in the file take about 4 times its bytes in the
 * snapshot, so during a load a rewrite came each time the store had grown by a quarter: each a fork that copies the
 * whole store, whose pages every write then copied on write (timed inside the apply script over a load of 20,000
 * datasets, its `ZADD`s into large sorted sets took 1.7 times as long as with no rewrite). At 400 a rewrite comes
 * about when the store has doubled; the file grows to about 5 times the snapshot before it (~2.5 GB at 100,000
 * datasets of the live benchmark).
 */
export const AOF_REWRITE_PERCENTAGE_DEFAULT = 400

/**
 * The search module's `FORK_GC_RUN_INTERVAL` the redisearch engine sets on each node it indexes on (the module's
 * default is 30 s). Each collection forks Redis and scans every index in the child, which on a 2-core machine took
 * 16-91 s for 100,000 datasets (longer under load); while the child lives every write pays copy-on-write page faults
 * and the parent applies the child's findings holding Redis's lock: measured through the service, Redis's time per
 * datasetProperties change went from 1.5-2.2 to 7.5-13 ms. Every 30 s a collection ran 74% of a 5-minute live run;
 * every 300 s 19%, at the price of up to 300 s of rewritten documents' entries that queries step over until the next
 * collection.
 */
export const REDISEARCH_GC_INTERVAL_DEFAULT = 300

/**
 * The scheduling priority (`nice`, -20 to 19) `npm start` gives the redis-server it launches on the service's own
 * machine: that server's one thread runs every command of every client, and on a machine whose cores its gateway,
 * workers and other work keep busy, a command that waits there for a core stalls every reader and writer meanwhile.
 * Raised above the service's own processes (0), the server gets a core first. Raising it needs root or
 * CAP_SYS_NICE; without either the server runs as the service does. In the live benchmark (100,000 datasets, one
 * server, 2 cores, two pairs of runs alternated): Redis commands over 20 ms 6 and 1 at -10 against 11 and 8 at 0,
 * queries/s 1,115 and 1,091 against 1,094 and 988.
 */
export const EMBEDDED_REDIS_NICE_DEFAULT = -10

/** EMBEDDED_REDIS_NICE of `env` (the redis-servers the project starts on this machine read it, besides loadConfig). */
export function embeddedRedisNiceOf(env: NodeJS.ProcessEnv): number {
  const raw = env.EMBEDDED_REDIS_NICE
  if (raw === undefined || raw === '') return EMBEDDED_REDIS_NICE_DEFAULT
  const value = Number(raw)
  if (!Number.isInteger(value) || value < -20 || value > 19) throw new Error(`configuration: EMBEDDED_REDIS_NICE must be an integer from -20 to 19, got ${raw}`)
  return value
}

/** AOF_REWRITE_PERCENTAGE of `env` (the redis-servers the project starts read it, besides loadConfig). */
export function aofRewritePercentageOf(env: NodeJS.ProcessEnv): number {
  return int(env, 'AOF_REWRITE_PERCENTAGE', AOF_REWRITE_PERCENTAGE_DEFAULT)
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) throw new Error(`configuration: ${name} must be a non-negative integer, got ${raw}`)
  return value
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`configuration: ${name} must be one of ${allowed.join(', ')}, got ${raw}`)
  return raw as T
}

/** Reads the configuration from `env` (process.env by default); throws on malformed values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const partitions = int(env, 'PARTITIONS', 16)
  if (partitions < 1) throw new Error('configuration: PARTITIONS must be at least 1')
  const redisCluster = (env.REDIS_CLUSTER ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')
  for (const node of redisCluster) {
    if (!/^[^\s:]+:\d+$/.test(node)) throw new Error(`configuration: REDIS_CLUSTER must list host:port seed nodes separated by commas, got ${node}`)
  }
  const shards = int(env, 'SHARDS', redisCluster.length > 0 ? 16 : 1)
  if (shards < 1 || shards > 16384) throw new Error('configuration: SHARDS must be between 1 and 16384')
  const keyPrefix = env.KEY_PREFIX ?? 'svc:'
  const facetValues = int(env, 'SEARCH_FACET_VALUES', DEFAULT_FACET_VALUES)
  if (facetValues < 1 || facetValues > MAX_FACET_VALUES) throw new Error(`configuration: SEARCH_FACET_VALUES must be between 1 and ${MAX_FACET_VALUES}`)
  if (/[{}]/.test(keyPrefix)) throw new Error(`configuration: KEY_PREFIX must not contain { or } (keys carry their shard's hash tag), got ${keyPrefix}`)
  return {
    redisUrl: env.REDIS_URL ?? '',
    redisCluster,
    shards,
    replicaAcks: int(env, 'REPLICA_ACKS', 0),
    replicaAckTimeoutMs: int(env, 'REPLICA_ACK_TIMEOUT_MS', 1000),
    keyPrefix,
    partitions,
    host: env.HOST ?? '127.0.0.1',
    port: int(env, 'PORT', 8080),
    searchEngine: oneOf(env, 'SEARCH_ENGINE', ['auto', 'native', 'redisearch'] as const, 'auto'),
    nativeBitmapMin: int(env, 'NATIVE_BITMAP_MIN', 256),
    nativeTallyMin: int(env, 'NATIVE_TALLY_MIN', 1000),
    searchWarmUpMs: int(env, 'SEARCH_WARMUP_MS', 3000),
    maxFilterValues: int(env, 'MAX_FILTER_VALUES', 5000),
    facetValues,
    redisearchGcInterval: int(env, 'REDISEARCH_GC_INTERVAL', REDISEARCH_GC_INTERVAL_DEFAULT),
    writeTimeoutMs: int(env, 'WRITE_TIMEOUT_MS', 30_000),
    maxQueueDepth: int(env, 'MAX_QUEUE_DEPTH', 20_000),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 16 * 1024 * 1024),
    authEnabled: oneOf(env, 'AUTH_ENABLED', ['true', 'false'] as const, 'false') === 'true',
    adminToken: env.ADMIN_TOKEN ?? '',
    dataDir: env.DATA_DIR ?? 'data',
    embeddedRedisPort: int(env, 'EMBEDDED_REDIS_PORT', 6380),
    appendFsync: oneOf(env, 'APPENDFSYNC', ['always', 'everysec', 'no'] as const, 'always'),
    aofRewritePercentage: aofRewritePercentageOf(env),
    embeddedRedisNice: embeddedRedisNiceOf(env),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
    lockDurationMs: int(env, 'LOCK_DURATION_MS', 2_000),
    stalledIntervalMs: int(env, 'STALLED_INTERVAL_MS', 1_000),
    changeLogMaxLen: int(env, 'CHANGELOG_MAXLEN', 100_000),
    registryFile: env.REGISTRY_FILE ?? '',
    redisearchModule: env.REDISEARCH_MODULE ?? '',
    dashboardPort: int(env, 'DASHBOARD_PORT', 8081),
    metricsPort: int(env, 'METRICS_PORT', 0),
    namespace: checkNamespace({
      urn: env.URN_NAMESPACE || CANONICAL_NAMESPACE.urn,
      record: env.RECORD_NAMESPACE || CANONICAL_NAMESPACE.record,
      protocolHeader: env.PROTOCOL_HEADER || CANONICAL_NAMESPACE.protocolHeader,
    }),
    unknownAspects: oneOf(env, 'UNKNOWN_ASPECTS', ['refuse', 'store'] as const, 'refuse'),
    unknownFields: oneOf(env, 'UNKNOWN_FIELDS', ['keep', 'drop', 'refuse'] as const, 'keep'),
  }
}
