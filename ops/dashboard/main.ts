/** The queue dashboard as its own process: `node ops/dashboard/main.ts` (needs REDIS_URL or REDIS_CLUSTER; DASHBOARD_PORT, default 8081). */
import { loadConfig } from '../../model/config.ts'
import { createLogger } from '../../model/log.ts'
import { startDashboard } from './start.ts'

const config = loadConfig()
const log = createLogger(config.logLevel, 'dashboard')
if (!config.redisUrl && config.redisCluster.length === 0) {
  log.error('REDIS_URL (or REDIS_CLUSTER) is required for the dashboard')
  process.exit(2)
}
const dashboard = await startDashboard(config, log)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { void dashboard.close().then(() => process.exit(0)) })
