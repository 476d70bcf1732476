/**
 * `npm start`: the whole service in one process. Without REDIS_URL it launches its own redis-server (append-only
 * file on, under DATA_DIR) on a free port; then it runs the workers and the gateway and prints the URL.
 */
import { loadConfig } from '../model/config.ts'
import { createLogger } from '../model/log.ts'
import { startGateway } from '../gateway/start.ts'
import { startWorkers } from '../workers/start.ts'
import { startEmbeddedRedis, type EmbeddedRedis } from './embeddedRedis.ts'

const config = loadConfig()
const log = createLogger(config.logLevel, 'svc')
let embedded: EmbeddedRedis | undefined
if (!config.redisUrl) {
  embedded = await startEmbeddedRedis({ dataDir: config.dataDir, appendFsync: config.appendFsync, module: config.redisearchModule || undefined })
  config.redisUrl = embedded.url
  log.info('embedded redis-server started', { url: embedded.url, dataDir: config.dataDir, appendfsync: config.appendFsync })
}
const workers = await startWorkers(config, log)
const gateway = await startGateway(config, log)
process.stdout.write(`\nMetadata catalog service listening on ${gateway.url}\n  docs: ${gateway.url}/svc/docs\n\n`)

async function shutdown(): Promise<void> {
  await gateway.close()
  await workers.close()
  await embedded?.stop()
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { void shutdown() })
