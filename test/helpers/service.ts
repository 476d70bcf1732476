/**
 * The service under test, in-process: workers and a gateway on a random port, against the run's Redis, under a
 * random key prefix so tests never see each other's data. `call` sends real HTTP requests.
 */
import { randomUUID } from 'node:crypto'
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

/** The plain test Redis (TEST_REDIS_URL, set by test/run.ts). */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL
  if (!url) throw new Error('TEST_REDIS_URL is not set: run tests through `npm test`')
  return url
}

/** A config for tests: random prefix, port 0, quiet logs. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    redisUrl: testRedisUrl(),
    keyPrefix: `t:${randomUUID().slice(0, 8)}:`,
    port: 0,
    partitions: 4,
    logLevel: 'silent',
    searchEngine: 'native',
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
  const { TokenStore } = await import('../../model/auth/tokens.ts')
  const { token } = await new TokenStore(svc.gateway.model.redis, svc.gateway.model.keys).create(subject, scope)
  return token
}
