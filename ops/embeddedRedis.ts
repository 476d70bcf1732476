/**
 * A redis-server of our own on a free local port: the embedded default of `npm start` (append-only file on, under
 * the data folder) and the test harness (no persistence). The RediSearch module is loaded when a path is given.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { getPriority, setPriority, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Redis } from 'ioredis'
import { aofRewritePercentageOf, embeddedRedisNiceOf } from '../model/config.ts'
import { encodingArgs } from './redisEncodings.ts'

export interface EmbeddedRedisOptions {
  /** Folder for the append-only file; omit for a server that keeps nothing. */
  dataDir?: string
  appendFsync?: 'always' | 'everysec' | 'no'
  /** `auto-aof-rewrite-percentage` of the append-only file (default: AOF_REWRITE_PERCENTAGE, model/config.ts). */
  aofRewritePercentage?: number
  /**
   * The server's scheduling priority (default: EMBEDDED_REDIS_NICE, model/config.ts embeddedRedisNiceOf), set when
   * this process may (raising it needs root or CAP_SYS_NICE); 0 leaves it as this process's.
   */
  nice?: number
  /** Path of a RediSearch module to load. */
  module?: string
  port?: number
  binary?: string
  /**
   * Also listen on a unix socket, which the service's processes on this machine connect through: each round trip
   * costs Redis and the client less CPU than over TCP. It lies in a folder of its own under the system's temporary
   * folder (removed on stop), not in the data folder, whose file system may refuse sockets (a share, a VM's mount)
   * and whose path may be longer than a socket's 107 bytes.
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
  /** The priority the server runs at: the one asked for, or this process's when it could not be set. */
  nice: number
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
    args.push('--dir', dir, '--appendonly', 'yes', '--appendfsync', options.appendFsync ?? 'always',
      '--auto-aof-rewrite-percentage', String(options.aofRewritePercentage ?? aofRewritePercentageOf(process.env)))
  } else {
    args.push('--appendonly', 'no')
  }
  const socketDir = options.socket ? mkdtempSync(join(tmpdir(), 'svc-redis-')) : undefined
  const socket = socketDir ? join(socketDir, 'redis.sock') : undefined
  if (socket) args.push('--unixsocket', socket, '--unixsocketperm', '700')
  if (options.module) args.push('--loadmodule', resolve(options.module))
  args.push(...encodingArgs(options.binary))
  const child = spawn(options.binary ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const nice = prioritize(child, options.nice ?? embeddedRedisNiceOf(process.env))
  // However the server ends (stopped, crashed, refused to start), its socket's folder goes with it.
  const removeSocketDir = () => { if (socketDir) rmSync(socketDir, { recursive: true, force: true }) }
  child.once('exit', removeSocketDir)
  child.once('error', removeSocketDir)
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
    url, port, localUrl, process: child, nice,
    async stop() {
      if (child.exitCode !== null) return
      const done = new Promise<void>((r) => child.once('exit', () => r()))
      child.kill('SIGTERM')
      await done
    },
  }
}

/**
 * Gives a redis-server just spawned the priority `nice` when this process may (embedded, and each node of a local
 * cluster: ops/localCluster.ts); answers the priority it runs at.
 */
export function prioritize(child: ChildProcess, nice: number): number {
  // Set at once: the threads the server starts take their priority from its main one when they start.
  if (nice !== 0 && child.pid !== undefined) {
    try {
      setPriority(child.pid, nice)
    } catch {
      // Not permitted (neither root nor CAP_SYS_NICE): it runs as this process does.
    }
  }
  try {
    return child.pid === undefined ? 0 : getPriority(child.pid)
  } catch {
    return 0
  }
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
