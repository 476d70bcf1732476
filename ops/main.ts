/**
 * `npm start`: the whole service in one process. Without REDIS_URL it launches its own redis-server (append-only
 * file on, under DATA_DIR) on a free port; then it runs the workers, the gateway and the queue dashboard, and
 * prints where they are. Without ADMIN_TOKEN it makes one for this run and prints it (admin routes need one).
 */
import { randomBytes } from 'node:crypto'
import { loadConfig } from '../model/config.ts'
import { createLogger } from '../model/log.ts'
import { startGateway } from '../gateway/start.ts'
import { startWorkers } from '../workers/start.ts'
import { startDashboard, type RunningDashboard } from './dashboard/start.ts'
import { startEmbeddedRedis, type EmbeddedRedis } from './embeddedRedis.ts'

const config = loadConfig()
const log = createLogger(config.logLevel, 'svc')
let embedded: EmbeddedRedis | undefined
if (!config.redisUrl && config.redisCluster.length === 0) {
  try {
    embedded = await startEmbeddedRedis({ dataDir: config.dataDir, appendFsync: config.appendFsync, module: config.redisearchModule || undefined })
  } catch (err) {
    log.error('cannot start the embedded redis-server: install redis-server (Debian: apt-get install redis-server) or set REDIS_URL', { error: (err as Error).message })
    process.exit(1)
  }
  config.redisUrl = embedded.url
  log.notice('embedded redis-server started', { url: embedded.url, dataDir: config.dataDir, appendfsync: config.appendFsync })
}
const generatedToken = config.adminToken ? undefined : `svc_${randomBytes(24).toString('base64url')}`
if (generatedToken) config.adminToken = generatedToken
const workers = await startWorkers(config, log)
const gateway = await startGateway(config, log)
let dashboard: RunningDashboard | undefined
try {
  dashboard = await startDashboard(config, log)
} catch (err) {
  log.warn('queue dashboard not started', { port: config.dashboardPort, error: (err as Error).message })
}
process.stdout.write([
  '',
  `Metadata catalog service listening on ${gateway.url}`,
  `  interactive docs: ${gateway.url}/svc/docs`,
  `  queue dashboard:  ${dashboard?.url ?? '(not started)'}`,
  `  metrics:          ${gateway.url}/metrics`,
  generatedToken ? `  admin token for this run (set ADMIN_TOKEN to choose one): ${generatedToken}` : '  admin token: ADMIN_TOKEN',
  '', '',
].join('\n'))

async function shutdown(): Promise<void> {
  await dashboard?.close()
  await gateway.close()
  await workers.close()
  await embedded?.stop()
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { void shutdown() })
