/**
 * A worker process: `node workers/main.ts` (needs REDIS_URL or REDIS_CLUSTER). Run as many as you like: partitions stay
 * serialized. With METRICS_PORT set it also answers `/metrics` and `/health` for Prometheus and orchestrators.
 */
import http from 'node:http'
import { loadConfig } from '../model/config.ts'
import { createLogger } from '../model/log.ts'
import { metricsText } from '../model/metricsText.ts'
import { startWorkers } from './start.ts'

const config = loadConfig()
const log = createLogger(config.logLevel, 'worker')
if (!config.redisUrl && config.redisCluster.length === 0) {
  log.error('REDIS_URL (or REDIS_CLUSTER) is required for a standalone worker')
  process.exit(2)
}
const running = await startWorkers(config, log)
const server = config.metricsPort > 0
  ? http.createServer(async (req, res) => {
    if (req.url === '/metrics') {
      const { body, contentType } = await metricsText()
      res.writeHead(200, { 'content-type': contentType }).end(body)
    } else if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
    } else res.writeHead(404).end()
  }).listen(config.metricsPort, config.host)
  : undefined
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { server?.close(); void running.close().then(() => process.exit(0)) })
}
