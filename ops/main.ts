/**
 * `npm start`: the whole service in one process. Without REDIS_URL it claims the data folder (DATA_DIR), checks
 * that its ports are free, and launches its own redis-server there (append-only file on, EMBEDDED_REDIS_PORT);
 * then it runs the workers (in a thread of their own: workers/inThread.ts), the gateway and the queue dashboard,
 * and prints where they are. Without ADMIN_TOKEN it makes one for this run and prints it (admin routes need one).
 *
 * It refuses before launching anything when the data folder or a port is in use (one line on stderr, exit 1), and
 * on any failure or signal it stops everything it started: no redis-server is left behind.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadConfig, type Config } from '../model/config.ts'
import { createLogger } from '../model/log.ts'
import { startGateway, type RunningGateway } from '../gateway/start.ts'
import { startWorkersThread, type ThreadedWorkers } from '../workers/inThread.ts'
import { startDashboard, type RunningDashboard } from './dashboard/start.ts'
import { startEmbeddedRedis, type EmbeddedRedis } from './embeddedRedis.ts'
import { claimDataDir, holderOf, InUseError, type InstanceClaim } from './instance.ts'
import { takenPortMessage, type PortNeed } from './portCheck.ts'

let config: Config
try {
  config = loadConfig()
} catch (err) {
  process.stderr.write(`error: ${(err as Error).message}\n`)
  process.exit(1)
}
const log = createLogger(config.logLevel, 'svc')
const dataDir = resolve(config.dataDir)
const embed = !config.redisUrl && config.redisCluster.length === 0
let claim: InstanceClaim | undefined
let embedded: EmbeddedRedis | undefined
let workers: ThreadedWorkers | undefined
let gateway: RunningGateway | undefined
let dashboard: RunningDashboard | undefined

/** Stops whatever was started, newest first; never throws. */
async function stopAll(): Promise<void> {
  for (const part of [dashboard, gateway, workers]) await part?.close().catch(() => {})
  await embedded?.stop().catch(() => {})
  claim?.release()
}

/** A start that cannot go on: one line on stderr, everything started stopped, exit 1. */
let refused = false
async function refuse(message: string): Promise<never> {
  if (refused) return new Promise<never>(() => {})
  refused = true
  process.stderr.write(`error: ${message}\n`)
  await stopAll()
  process.exit(1)
}

// Last resort when the process ends some other way: the embedded redis-server must not outlive it.
process.on('exit', () => {
  if (embedded && embedded.process.exitCode === null) embedded.process.kill('SIGTERM')
  claim?.release()
})
process.on('uncaughtException', (err) => { void refuse(`unexpected failure: ${err.message}`) })
process.on('unhandledRejection', (err) => { void refuse(`unexpected failure: ${err instanceof Error ? err.message : String(err)}`) })

// Refusals first, before anything is created: the data folder, then the ports.
try {
  const held = embed ? holderOf(dataDir) : undefined
  if (held) await refuse(held)
  const ports: PortNeed[] = [{ setting: 'PORT', host: config.host, port: config.port }, { setting: 'DASHBOARD_PORT', host: config.host, port: config.dashboardPort }]
  if (embed) ports.push({ setting: 'EMBEDDED_REDIS_PORT', host: '127.0.0.1', port: config.embeddedRedisPort })
  const taken = await takenPortMessage(ports)
  if (taken) await refuse(taken)
  if (embed) {
    mkdirSync(dataDir, { recursive: true })
    claim = claimDataDir(dataDir)
  }
} catch (err) {
  await refuse(err instanceof InUseError ? err.message : `cannot use the data folder ${dataDir}: ${(err as Error).message}`)
}

if (embed) {
  try {
    embedded = await startEmbeddedRedis({ dataDir, appendFsync: config.appendFsync, aofRewritePercentage: config.aofRewritePercentage, module: config.redisearchModule || undefined, port: config.embeddedRedisPort || undefined, socket: true, nice: config.embeddedRedisNice })
  } catch (err) {
    const missing = /ENOENT/.test((err as Error).message)
    await refuse(missing ? 'redis-server is not installed: install it (Debian: apt-get install redis-server) or set REDIS_URL to a Redis to use'
      : `cannot start the embedded redis-server: ${(err as Error).message.split('\n')[0]}`)
  }
  // This machine's processes (the service's, and the CLI through the instance record) use the unix socket.
  config.redisUrl = embedded!.localUrl
  claim!.update({ redisUrl: embedded!.localUrl, redisPid: embedded!.process.pid })
  log.notice('embedded redis-server started', { url: embedded!.url, socket: embedded!.localUrl, dataDir, appendfsync: config.appendFsync, nice: embedded!.nice })
}
const generatedToken = config.adminToken ? undefined : `svc_${randomBytes(24).toString('base64url')}`
if (generatedToken) config.adminToken = generatedToken
try {
  // In a thread of their own: the writes are applied on another core than the gateway's queries (workers/inThread.ts).
  workers = await startWorkersThread(config, (err) => {
    log.error('the workers stopped: stopping the service', { error: err.message })
    void stopAll().then(() => process.exit(1))
  })
  gateway = await startGateway(config, log)
  dashboard = await startDashboard(config, log)
} catch (err) {
  await refuse(`cannot start the service: ${(err as Error).message.split('\n')[0]}`)
}
claim?.update({ apiUrl: gateway!.url, dashboardUrl: dashboard!.url })
const lines = [
  '',
  `Metadata catalog service listening on ${gateway!.url}`,
  `  interactive docs: ${gateway!.url}/svc/docs`,
  `  queue dashboard:  ${dashboard!.url}`,
  `  metrics:          ${gateway!.url}/metrics`,
]
if (embedded) {
  lines.push(`  redis:            ${embedded.url} (embedded: redis-cli -p ${embedded.port}; npm run svc finds it by itself)`,
    `  redis socket:     ${embedded.localUrl} (the service's processes connect through it)`,
    `  data folder:      ${dataDir} (kept when the service stops; delete it to start afresh)`)
} else {
  lines.push('  redis:            REDIS_URL')
}
lines.push(generatedToken ? `  admin token for this run (set ADMIN_TOKEN to keep one): ${generatedToken}` : '  admin token:      ADMIN_TOKEN',
  '  stop with Ctrl-C', '', '')
process.stdout.write(lines.join('\n'))

let stopping = false
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    process.stderr.write('stopping at once\n')
    if (embedded && embedded.process.exitCode === null) embedded.process.kill('SIGKILL')
    process.exit(1)
  }
  stopping = true
  await stopAll()
  process.stdout.write(`\nstopped (${signal})${embed ? `; the data is kept in ${dataDir}` : ''}\n`)
  process.exit(0)
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => { void shutdown(signal) })
