/** Starts a gateway against `config.redisUrl`: model, write queues, HTTP server listening on host:port. */
import type { Server } from 'restify'
import { TokenStore } from '../model/services/tokens.ts'
import type { Config } from '../model/config.ts'
import type { Logger } from '../model/log.ts'
import { openModel, type Model } from '../model/services/runtime.ts'
import { warmQueries } from '../model/search/warmQueries.ts'
import { connectForQueues, connectForRequests } from '../model/store/redis.ts'
import type { GatewayDeps } from './deps.ts'
import { buildServer } from './server.ts'
import { Writer } from './writer.ts'

export interface RunningGateway {
  server: Server
  model: Model
  writer: Writer
  url: string
  /** Settles once the search engine has prepared this process (`/ready` waits for it too). */
  warmed: Promise<void>
  close(): Promise<void>
}

export async function startGateway(config: Config, log: Logger): Promise<RunningGateway> {
  const redis = connectForRequests(config, 'svc-gateway')
  const queueConnection = connectForQueues(config, 'svc-gateway-queue')
  // The gateway admits writes, so it alone applies UNKNOWN_ASPECTS; workers store whatever it admitted.
  const model = await openModel(config, redis)
  const writer = new Writer(config, queueConnection, model.keys)
  await writer.ready()
  const searchWarm = { done: false }
  const deps: GatewayDeps = { model, writer, log, tokens: new TokenStore(redis, model.keys), searchWarm }
  const server = buildServer(deps)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => { server.off('error', reject); resolve() })
  })
  const address = server.address()
  const url = `http://${config.host}:${address.port}`
  log.notice('gateway listening', { url, engine: model.engine.name, partitions: config.partitions })
  const warmed = warmSearch(config, model, log, searchWarm)
  return {
    server, model, writer, url, warmed,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await writer.close()
      await model.engine.close?.()
      queueConnection.disconnect()
      redis.disconnect()
    },
  }
}

/**
 * Lets the search engine prepare this process while it already answers (its queries copy what they need meanwhile),
 * then, with an engine that answers queries here, asks some of them (model/search/warmQueries.ts); `/ready` says
 * ready once done. A failure is logged, and readiness then goes on without it: queries copy on demand.
 */
async function warmSearch(config: Config, model: Model, log: Logger, state: { done: boolean }): Promise<void> {
  const began = performance.now()
  try {
    await model.engine.warmUp?.()
    const copied = performance.now() - began
    const asked = model.engine.queriesInProcess
      ? await warmQueries(model.search, model.registry, { budgetMs: config.searchWarmUpMs, minDocuments: config.nativeTallyMin })
      : undefined
    log.info('search ready', { engine: model.engine.name, ms: Math.round(performance.now() - began), copyMs: Math.round(copied), ...(asked ? { warmTypes: asked.types, warmQueries: asked.queries } : {}) })
  } catch (err) {
    log.warn('search warm-up failed: queries copy what they need on first use', { error: (err as Error).message })
  } finally {
    state.done = true
  }
}
