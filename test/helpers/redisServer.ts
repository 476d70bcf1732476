/**
 * The Redis servers a test run uses, started once per run by test/run.ts and found by tests through environment
 * variables: TEST_REDIS_URL (plain Redis) and TEST_REDIS_SEARCH_URL (with the search module, when one is
 * available). testcontainers is used when a container runtime answers; otherwise a local redis-server is started
 * on a free port. Tests never touch the machine's own Redis on 6379 and never flush: each uses its own key prefix.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startEmbeddedRedis } from '../../ops/embeddedRedis.ts'

export interface TestServer {
  url: string
  how: string
  stop(): Promise<void>
}

async function fromContainer(image: string): Promise<TestServer | undefined> {
  try {
    const { GenericContainer } = await import('testcontainers')
    const container = await new GenericContainer(image).withExposedPorts(6379).start()
    return {
      url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
      how: `container ${image}`,
      stop: async () => { await container.stop() },
    }
  } catch {
    return undefined
  }
}

/** Plain Redis: a container when a runtime answers, else a local redis-server. */
export async function startPlainRedis(): Promise<TestServer> {
  if (process.env.TESTCONTAINERS !== 'off') {
    const container = await fromContainer('redis:7.2')
    if (container) return container
  }
  const server = await startEmbeddedRedis()
  return { url: server.url, how: `local redis-server on port ${server.port}`, stop: () => server.stop() }
}

/** A redis-server binary and the RediSearch module it loads. */
export interface SearchStack {
  module: string
  /** The redis-server to run it in (undefined: `redis-server` on the PATH). */
  binary?: string
  /** How the run names it. */
  name: string
}

/** The builds from upstream's source that ../shared/redis-stack holds (beside the repository, in CI too), newest first. */
const SHARED = fileURLToPath(new URL('../../../shared/redis-stack/', import.meta.url))
const SHARED_STACKS: SearchStack[] = [
  { module: `${SHARED}redisearch210/redisearch.so`, binary: `${SHARED}redis74/bin/redis-server`, name: 'Redis 7.4 + RediSearch 2.10 (../shared/redis-stack)' },
  { module: `${SHARED}redisearch28/redisearch.so`, binary: `${SHARED}redis72/bin/redis-server`, name: 'Redis 7.2 + RediSearch 2.8 (../shared/redis-stack)' },
  { module: `${SHARED}redisearch26/redisearch.so`, name: 'redis-server + RediSearch 2.6 (../shared/redis-stack)' },
]

/**
 * The search stack tests use: REDISEARCH_MODULE (with REDISEARCH_SERVER, the redis-server to load it in), else the
 * newest of ../shared/redis-stack that is present, else /opt/redisearch/redisearch.so; undefined when none is.
 */
export function searchStack(): SearchStack | undefined {
  if (process.env.REDISEARCH_MODULE) {
    const module = process.env.REDISEARCH_MODULE
    return existsSync(module) ? { module, binary: process.env.REDISEARCH_SERVER || undefined, name: module } : undefined
  }
  const shared = SHARED_STACKS.find((s) => existsSync(s.module) && (!s.binary || existsSync(s.binary)))
  if (shared) return shared
  return existsSync('/opt/redisearch/redisearch.so') ? { module: '/opt/redisearch/redisearch.so', name: '/opt/redisearch/redisearch.so' } : undefined
}

/** Redis with the search module: REDIS_SEARCH_URL, a search stack (searchStack), or a container; else undefined. */
export async function startSearchRedis(): Promise<TestServer | undefined> {
  if (process.env.REDIS_SEARCH_URL) return { url: process.env.REDIS_SEARCH_URL, how: 'REDIS_SEARCH_URL', stop: async () => {} }
  const stack = searchStack()
  if (stack) {
    const server = await startEmbeddedRedis({ module: stack.module, binary: stack.binary })
    return { url: server.url, how: `local ${stack.name}`, stop: () => server.stop() }
  }
  if (process.env.TESTCONTAINERS !== 'off') return fromContainer('redis/redis-stack-server:7.2.0-v10')
  return undefined
}
