/** Starts the queue dashboard on DASHBOARD_PORT (used by ops/dashboard/main.ts and the all-in-one start). */
import type { Server } from 'node:http'
import { TokenStore } from '../../model/services/tokens.ts'
import type { Config } from '../../model/config.ts'
import type { Logger } from '../../model/log.ts'
import { Keys } from '../../model/store/keys.ts'
import { connectForRequests } from '../../model/store/redis.ts'
import { buildDashboard, DASHBOARD_PATH } from './app.ts'

export interface RunningDashboard {
  url: string
  close(): Promise<void>
}

export async function startDashboard(config: Config, log: Logger): Promise<RunningDashboard> {
  const redis = connectForRequests(config, 'svc-dashboard')
  const keys = new Keys(config.keyPrefix, config.shards)
  const { app, queues } = buildDashboard(config, redis, keys, new TokenStore(redis, keys))
  // Express 5 calls back with the error when listening fails (EADDRINUSE).
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.dashboardPort, config.host, (err?: Error) => (err ? reject(err) : resolve(s)))
  })
  const { port } = server.address() as { port: number }
  const url = `http://${config.host}:${port}${DASHBOARD_PATH}`
  log.notice('queue dashboard listening', { url })
  return {
    url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await Promise.all(queues.map((q) => q.close()))
      redis.disconnect()
    },
  }
}
