/**
 * The operators' queue dashboard: bull-board (there is no Restify adapter, so a small Express app) showing every
 * partition queue with its waiting, active, completed and failed jobs, failed jobs' errors, and retry. With
 * AUTH_ENABLED it needs an admin token, as a bearer header or as the password of HTTP basic auth (which browsers
 * prompt for).
 */
import { createBullBoard } from '@bull-board/api'
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter'
import { ExpressAdapter } from '@bull-board/express'
import type { Queue } from 'bullmq'
import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import type { RedisClient } from '../../model/store/redis.ts'
import { allows, type TokenStore } from '../../model/services/tokens.ts'
import type { Config } from '../../model/config.ts'
import { openQueue } from '../../model/services/writeQueues.ts'
import type { Keys } from '../../model/store/keys.ts'

export const DASHBOARD_PATH = '/queues'

/** The token of a request: `Authorization: Bearer <token>` or basic auth's password. */
function tokenOf(req: Request): string | undefined {
  const header = req.headers.authorization ?? ''
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1]
  if (bearer) return bearer
  const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1]
  if (!basic) return undefined
  const decoded = Buffer.from(basic, 'base64').toString()
  return decoded.slice(decoded.indexOf(':') + 1) || undefined
}

function requireAdmin(config: Config, tokens: TokenStore) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!config.authEnabled) return next()
    const token = tokenOf(req)
    const ok = token !== undefined && ((config.adminToken !== '' && token === config.adminToken) || allows((await tokens.verify(token))?.scope ?? 'public' as never, 'admin'))
    if (ok) return next()
    res.set('WWW-Authenticate', 'Basic realm="svc queue dashboard"').status(401)
      .json({ status: 401, code: 'UNAUTHORIZED', message: 'the dashboard needs an admin token (bearer, or basic auth password)', details: [] })
  }
}

/**
 * The name the dashboard shows for a partition's queue: its number zero-padded to the widest partition number
 * (`ingest-01` of 16), so that the dashboard's alphabetical order is the numeric one (not ingest-0, 1, 10, 11...).
 * Pure.
 */
export function partitionLabel(partition: number, partitions: number): string {
  return `ingest-${String(partition).padStart(String(Math.max(partitions - 1, 0)).length, '0')}`
}

/** Builds the dashboard app over the partition queues; close the returned queues when done. */
export function buildDashboard(config: Config, connection: RedisClient, keys: Keys, tokens: TokenStore): { app: Express; queues: Queue[] } {
  const queues = Array.from({ length: config.partitions }, (_, p) => openQueue(connection, keys, p))
  const serverAdapter = new ExpressAdapter()
  serverAdapter.setBasePath(DASHBOARD_PATH)
  createBullBoard({ queues: queues.map((q, p) => new BullMQAdapter(q, { displayName: partitionLabel(p, config.partitions) })), serverAdapter, options: { uiConfig: { boardTitle: 'svc write queues' } } })
  const app = express()
  app.get('/health', (_req, res) => { res.json({ status: 'ok' }) })
  app.get('/', (_req, res) => { res.redirect(DASHBOARD_PATH) })
  app.use(DASHBOARD_PATH, requireAdmin(config, tokens), serverAdapter.getRouter())
  return { app, queues }
}
