/** What the gateway is built from (wired by a main.ts; tests wire their own). */
import type { TokenStore } from '../model/services/tokens.ts'
import type { Logger } from '../model/log.ts'
import type { Model } from '../model/services/runtime.ts'
import type { AsyncWriter } from './asyncWrites.ts'
import type { Writer } from './writeQueue.ts'

export interface GatewayDeps {
  model: Model
  writer: Writer
  /** Writes acknowledged once queued (`async: true`). */
  asyncWriter: AsyncWriter
  log: Logger
  tokens: TokenStore
}
