/**
 * Configuration from environment variables, read once at start-up. Every variable is documented in the README's
 * configuration table; defaults suit a local run.
 */

import { CANONICAL_NAMESPACE, checkNamespace, type Namespace } from './namespace.ts'

export type SearchEngineChoice = 'auto' | 'native' | 'redisearch'

export interface Config {
  /** Redis to use; empty means "launch an embedded redis-server" (ops/main.ts only). */
  redisUrl: string
  keyPrefix: string
  partitions: number
  host: string
  port: number
  searchEngine: SearchEngineChoice
  writeTimeoutMs: number
  maxQueueDepth: number
  maxBodyBytes: number
  authEnabled: boolean
  /** A bootstrap admin token accepted besides the stored ones (ADMIN_TOKEN); empty: none. */
  adminToken: string
  /** Folder of the embedded redis-server's append-only file. */
  dataDir: string
  appendFsync: 'always' | 'everysec' | 'no'
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
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
  return {
    redisUrl: env.REDIS_URL ?? '',
    keyPrefix: env.KEY_PREFIX ?? 'svc:',
    partitions,
    host: env.HOST ?? '127.0.0.1',
    port: int(env, 'PORT', 8080),
    searchEngine: oneOf(env, 'SEARCH_ENGINE', ['auto', 'native', 'redisearch'] as const, 'auto'),
    writeTimeoutMs: int(env, 'WRITE_TIMEOUT_MS', 30_000),
    maxQueueDepth: int(env, 'MAX_QUEUE_DEPTH', 20_000),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 16 * 1024 * 1024),
    authEnabled: oneOf(env, 'AUTH_ENABLED', ['true', 'false'] as const, 'false') === 'true',
    adminToken: env.ADMIN_TOKEN ?? '',
    dataDir: env.DATA_DIR ?? 'data',
    appendFsync: oneOf(env, 'APPENDFSYNC', ['always', 'everysec', 'no'] as const, 'always'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
    lockDurationMs: int(env, 'LOCK_DURATION_MS', 10_000),
    stalledIntervalMs: int(env, 'STALLED_INTERVAL_MS', 5_000),
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
  }
}
