/**
 * The Redis servers a test run uses, started once per run by test/run.ts and found by tests through environment
 * variables: TEST_REDIS_URL (plain Redis) and TEST_REDIS_SEARCH_URL (with the search module, when one is
 * available). testcontainers is used when a container runtime answers; otherwise a local redis-server is started
 * on a free port. Tests never touch the machine's own Redis on 6379 and never flush: each uses its own key prefix.
 */
import { existsSync } from 'node:fs'
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

/** The RediSearch module file to load (REDISEARCH_MODULE, else /opt/redisearch/redisearch.so), if there is one. */
export function searchModulePath(): string | undefined {
  const module = process.env.REDISEARCH_MODULE || '/opt/redisearch/redisearch.so'
  return existsSync(module) ? module : undefined
}

/** Redis with the search module: REDIS_SEARCH_URL, a module file (REDISEARCH_MODULE), or a container; else undefined. */
export async function startSearchRedis(): Promise<TestServer | undefined> {
  if (process.env.REDIS_SEARCH_URL) return { url: process.env.REDIS_SEARCH_URL, how: 'REDIS_SEARCH_URL', stop: async () => {} }
  const module = searchModulePath()
  if (module) {
    const server = await startEmbeddedRedis({ module })
    return { url: server.url, how: `local redis-server with ${module}`, stop: () => server.stop() }
  }
  if (process.env.TESTCONTAINERS !== 'off') return fromContainer('redis/redis-stack-server:7.2.0-v10')
  return undefined
}
