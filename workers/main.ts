/** A worker process: `node workers/main.ts` (needs REDIS_URL). Run as many as you like: partitions stay serialized. */
import { loadConfig } from '../model/config.ts'
import { createLogger } from '../model/log.ts'
import { startWorkers } from './start.ts'

const config = loadConfig()
const log = createLogger(config.logLevel, 'worker')
if (!config.redisUrl) {
  log.error('REDIS_URL is required for a standalone worker')
  process.exit(2)
}
const running = await startWorkers(config, log)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { void running.close().then(() => process.exit(0)) })
}
