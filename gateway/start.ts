/** Starts a gateway against `config.redisUrl`: model, write queues, HTTP server listening on host:port. */
import type { Server } from 'restify'
import { TokenStore } from '../model/services/tokens.ts'
import type { Config } from '../model/config.ts'
import type { Logger } from '../model/log.ts'
import { openModel, type Model } from '../model/services/runtime.ts'
import { connectForQueues, connectForRequests } from '../model/store/redis.ts'
import type { GatewayDeps } from './deps.ts'
import { buildServer } from './server.ts'
import { Writer } from './writer.ts'

export interface RunningGateway {
  server: Server
  model: Model
  url: string
  close(): Promise<void>
}

export async function startGateway(config: Config, log: Logger): Promise<RunningGateway> {
  const redis = connectForRequests(config, 'svc-gateway')
  const queueConnection = connectForQueues(config, 'svc-gateway-queue')
  // The gateway admits writes, so it alone applies UNKNOWN_ASPECTS; workers store whatever it admitted.
  const model = await openModel(config, redis)
  const writer = new Writer(config, queueConnection, model.keys)
  await writer.ready()
  const deps: GatewayDeps = { model, writer, log, tokens: new TokenStore(redis, model.keys) }
  const server = buildServer(deps)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => { server.off('error', reject); resolve() })
  })
  const address = server.address()
  const url = `http://${config.host}:${address.port}`
  log.notice('gateway listening', { url, engine: model.engine.name, partitions: config.partitions })
  return {
    server, model, url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await writer.close()
      await model.engine.close?.()
      queueConnection.disconnect()
      redis.disconnect()
    },
  }
}
