/** A gateway process: `node gateway/main.ts` (needs REDIS_URL or REDIS_CLUSTER; workers run as their own processes). */
import { loadConfig } from '../model/config.ts'
import { createLogger } from '../model/log.ts'
import { startGateway } from './start.ts'

const config = loadConfig()
const log = createLogger(config.logLevel, 'gateway')
if (!config.redisUrl && config.redisCluster.length === 0) {
  log.error('REDIS_URL (or REDIS_CLUSTER) is required for a standalone gateway (npm start launches an embedded Redis instead)')
  process.exit(2)
}
const gateway = await startGateway(config, log)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { void gateway.close().then(() => process.exit(0)) })
}
