/** What the gateway is built from (wired by a main.ts; tests wire their own). */
import type { TokenStore } from '../model/services/tokens.ts'
import type { Logger } from '../model/log.ts'
import type { Model } from '../model/services/runtime.ts'
import type { Writer } from './writer.ts'

export interface GatewayDeps {
  model: Model
  /** Writes answered once applied, or (`wait: false`, `"async": "true"`) once queued. */
  writer: Writer
  log: Logger
  tokens: TokenStore
  /** Whether the search engine has prepared this process (SearchEngine.warmUp); absent: nothing to prepare. */
  searchWarm?: { done: boolean }
}
