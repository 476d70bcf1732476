/**
 * A redis-server of our own on a free local port: the embedded default of `npm start` (append-only file on, under
 * the data folder) and the test harness (no persistence). The RediSearch module is loaded when a path is given.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Redis } from 'ioredis'

export interface EmbeddedRedisOptions {
  /** Folder for the append-only file; omit for a server that keeps nothing. */
  dataDir?: string
  appendFsync?: 'always' | 'everysec' | 'no'
  /** Path of a RediSearch module to load. */
  module?: string
  port?: number
  binary?: string
  /**
   * Also listen on a unix socket (in the data folder, or a folder of its own), which the service's processes on this
   * machine connect through: each round trip costs Redis and the client less CPU than over TCP.
   */
  socket?: boolean
}

export interface EmbeddedRedis {
  /** Over TCP (`redis://127.0.0.1:<port>`): for redis-cli and anything on another machine. */
  url: string
  port: number
  /** The unix socket's path when `socket` was asked, else `url`: what this machine's processes connect to. */
  localUrl: string
  process: ChildProcess
  stop(): Promise<void>
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolvePort(port))
    })
  })
}

/** Starts redis-server and resolves once it answers PING. */
export async function startEmbeddedRedis(options: EmbeddedRedisOptions = {}): Promise<EmbeddedRedis> {
  const port = options.port ?? (await freePort())
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--protected-mode', 'yes']
  if (options.dataDir) {
    const dir = resolve(options.dataDir)
    mkdirSync(dir, { recursive: true })
    args.push('--dir', dir, '--appendonly', 'yes', '--appendfsync', options.appendFsync ?? 'always')
  } else {
    args.push('--appendonly', 'no')
  }
  const socket = options.socket ? socketPath(options.dataDir, port) : undefined
  if (socket) args.push('--unixsocket', socket, '--unixsocketperm', '700')
  if (options.module) args.push('--loadmodule', resolve(options.module))
  const child = spawn(options.binary ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d: Buffer) => { output = (output + d.toString()).slice(-4000) })
  child.stderr!.on('data', (d: Buffer) => { output = (output + d.toString()).slice(-4000) })
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (err) => reject(new Error(`cannot start redis-server: ${err.message}`)))
    child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}: ${output}`)))
  })
  const url = `redis://127.0.0.1:${port}`
  const localUrl = socket ?? url
  await Promise.race([waitForPing(localUrl), exited])
  return {
    url, port, localUrl, process: child,
    async stop() {
      if (child.exitCode !== null) return
      const done = new Promise<void>((r) => child.once('exit', () => r()))
      child.kill('SIGTERM')
      await done
    },
  }
}

/** A unix socket's path may not be longer than 107 bytes: in the data folder when it fits, else in a folder of its own. */
const MAX_SOCKET_PATH = 100

function socketPath(dataDir: string | undefined, port: number): string {
  const inData = dataDir ? join(resolve(dataDir), 'redis.sock') : undefined
  if (inData && Buffer.byteLength(inData) <= MAX_SOCKET_PATH) return inData
  return join(mkdtempSync(join(tmpdir(), 'svc-redis-')), `${port}.sock`)
}

async function waitForPing(url: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
    probe.on('error', () => {})
    try {
      await probe.connect()
      if ((await probe.ping()) === 'PONG') return
    } catch {
      // not up yet
    } finally {
      probe.disconnect()
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`redis-server did not answer on ${url} within 10 s`)
}
