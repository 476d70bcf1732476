/**
 * The workers of `npm start` in a thread of their own (workers/inThread.ts starts it): the write path then runs on
 * another core than the gateway's queries, as it does when workers run as their own processes. Asked by the
 * main thread: `close` (answers `closed`) and `metrics` (answers this thread's Prometheus text: the workers'
 * metrics, which the gateway's `/metrics` shows beside its own).
 */
import { parentPort, workerData } from 'node:worker_threads'
import client from 'prom-client'
import type { Config } from '../model/config.ts'
import { createLogger } from '../model/log.ts'
import { startWorkers } from './start.ts'
import type { FromThread, ToThread } from './inThread.ts'

const port = parentPort!
const tell = (message: FromThread) => port.postMessage(message)
const config = (workerData as { config: Config }).config
try {
  const running = await startWorkers(config, createLogger(config.logLevel, 'svc'))
  port.on('message', (message: ToThread) => {
    if (message.type === 'close') void running.close().finally(() => tell({ type: 'closed' }))
    else void client.register.metrics().then((text) => tell({ type: 'metrics', id: message.id, text }))
  })
  tell({ type: 'ready' })
} catch (err) {
  tell({ type: 'failed', error: (err as Error).message })
}
