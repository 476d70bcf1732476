/**
 * The service under test, in-process: workers and a gateway on a random port, against the run's Redis, under a
 * random key prefix so tests never see each other's data. `call` sends real HTTP requests.
 */
import { randomUUID } from 'node:crypto'
import { suite } from 'uvu'
import { loadConfig, type Config } from '../../model/config.ts'
import { createLogger } from '../../model/log.ts'
import { startGateway, type RunningGateway } from '../../gateway/start.ts'
import { startWorkers, type RunningWorkers } from '../../workers/start.ts'

export interface TestService {
  url: string
  config: Config
  gateway: RunningGateway
  workers?: RunningWorkers
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>
  close(): Promise<void>
}

/** Whether this test pass runs on a Redis Cluster (test/runPass.ts sets TEST_REDIS_CLUSTER). */
export const onCluster = (): boolean => Boolean(process.env.TEST_REDIS_CLUSTER)

/** Where the pass's plain Redis is: a standalone server (TEST_REDIS_URL) or the cluster's seed nodes. */
export function testRedisTarget(): Pick<Config, 'redisUrl' | 'redisCluster' | 'shards'> {
  if (onCluster()) return { redisUrl: '', redisCluster: process.env.TEST_REDIS_CLUSTER!.split(','), shards: 16 }
  const url = process.env.TEST_REDIS_URL
  if (!url) throw new Error('TEST_REDIS_URL is not set: run tests through `npm test`')
  return { redisUrl: url, redisCluster: [], shards: 1 }
}

/** Where the pass's Redis with the search module is (standalone or cluster), or undefined when there is none. */
export function testSearchTarget(): Pick<Config, 'redisUrl' | 'redisCluster' | 'shards'> | undefined {
  if (process.env.TEST_REDIS_SEARCH_CLUSTER) return { redisUrl: '', redisCluster: process.env.TEST_REDIS_SEARCH_CLUSTER.split(','), shards: 16 }
  if (process.env.TEST_REDIS_SEARCH_URL) return { redisUrl: process.env.TEST_REDIS_SEARCH_URL, redisCluster: [], shards: 1 }
  return undefined
}

/** A search engine a suite runs on, with the config that selects it. */
export interface TestEngine { name: 'native' | 'native, bitmaps' | 'redisearch'; overrides: Partial<Config> }

/**
 * The engines a suite named `title` runs on: native always, twice (as configured by default, and with every
 * posting keeping a bitmap, facets counted by bitmaps from results of two on and kept for every word and value, so that the small catalogues of
 * tests take the paths large ones take); redisearch when the pass has a Redis with the search module; otherwise a
 * skipped suite says so in the report.
 */
export function searchEngines(title: string): TestEngine[] {
  const engines: TestEngine[] = [
    { name: 'native', overrides: { searchEngine: 'native' } },
    { name: 'native, bitmaps', overrides: { searchEngine: 'native', nativeBitmapMin: 1, nativeTallyMin: 1 } },
  ]
  const target = testSearchTarget()
  if (target) return [...engines, { name: 'redisearch', overrides: { searchEngine: 'redisearch', ...target } }]
  const skipped = suite(`${title} [redisearch]`)
  skipped.skip('SKIPPED: no Redis with the search module (set REDIS_SEARCH_URL or REDISEARCH_MODULE)', () => {})
  skipped.run()
  console.log(`${title} [redisearch]: SKIPPED, no Redis with the search module was found`)
  return engines
}

/** The environment a service process needs to reach the same store as `config` (spawned gateways, workers, CLI). */
export function redisEnv(config: Config): Record<string, string> {
  return {
    REDIS_URL: config.redisUrl, REDIS_CLUSTER: config.redisCluster.join(','), SHARDS: String(config.shards),
    KEY_PREFIX: config.keyPrefix, PARTITIONS: String(config.partitions), SEARCH_ENGINE: config.searchEngine,
    NATIVE_BITMAP_MIN: String(config.nativeBitmapMin), NATIVE_TALLY_MIN: String(config.nativeTallyMin),
  }
}

/** A config for tests: random prefix, port 0, quiet logs, no search warm-up. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    ...testRedisTarget(),
    keyPrefix: `t:${randomUUID().slice(0, 8)}:`,
    port: 0,
    partitions: 4,
    logLevel: 'silent',
    searchEngine: 'native',
    // Gateways start by hundreds here, mostly on empty stores; warming up is tested on its own (warmQueries.test.ts).
    searchWarmUpMs: 0,
    ...overrides,
  }
}

/** Sends one HTTP request; the body is sent as JSON when it is not a string. */
export async function httpCall(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  let parsed: unknown = text
  try { parsed = text ? JSON.parse(text) : undefined } catch { /* not JSON */ }
  return { status: res.status, body: parsed as any, headers: res.headers }
}

/** Starts gateway (+ in-process workers unless `workers: false`). */
export async function startService(overrides: Partial<Config> = {}, options: { workers?: boolean } = {}): Promise<TestService> {
  const config = testConfig(overrides)
  const log = createLogger(config.logLevel, 'test')
  const workers = options.workers === false ? undefined : await startWorkers(config, log)
  const gateway = await startGateway(config, log)
  return {
    url: gateway.url, config, gateway, workers,
    call: (method, path, body, headers) => httpCall(gateway.url, method, path, body, headers),
    async close() {
      await gateway.close()
      await workers?.close()
    },
  }
}

/** A fresh token of `scope` for the service under test (stored like the CLI stores them). */
export async function tokenFor(svc: TestService, scope: 'read' | 'write' | 'admin', subject = `test-${scope}`): Promise<string> {
  const { TokenStore } = await import('../../model/services/tokens.ts')
  const { token } = await new TokenStore(svc.gateway.model.redis, svc.gateway.model.keys).create(subject, scope)
  return token
}
