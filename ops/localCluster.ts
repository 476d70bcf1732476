/**
 * A local Redis Cluster for tests and benchmarks (test/runPass.ts, ops/bench/), from plain redis-server processes: `masters` masters with
 * `replicas` replicas each (`--cluster-enabled yes`), joined by `redis-cli --cluster create`, on free ports, under
 * a temporary folder. No Docker. Nodes can be killed and restarted (fault tests: a master dies, its replica takes
 * over). Nodes can be added and removed (ops/clusterGrowth.ts grows and shrinks it).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import { freePort, prioritize } from './embeddedRedis.ts'
import { aofRewritePercentageOf, embeddedRedisNiceOf } from '../model/config.ts'
import { encodingArgs } from './redisEncodings.ts'

const run = promisify(execFile)

export interface ClusterNode {
  port: number
  process: ChildProcess
}

export interface LocalCluster {
  /** Seed nodes as REDIS_CLUSTER takes them: `127.0.0.1:port,...`. */
  seeds: string
  nodes: ClusterNode[]
  /** The ports of the current masters. */
  masterPorts(): Promise<number[]>
  /** SIGKILLs the node on `port` (it stays down until `restart`). */
  kill(port: number): Promise<void>
  /** Starts the node on `port` again (it rejoins with its saved cluster state). */
  restart(port: number): Promise<void>
  /** Starts one more (empty, not yet joined) node with the cluster's options; ops/clusterGrowth.ts joins it. */
  addNode(): Promise<ClusterNode>
  /** Forgets a node after it left the cluster (`redis-cli --cluster del-node` shuts it down). */
  removeNode(port: number): Promise<void>
  /** Waits until `masters` live nodes are masters and every slot is served (a killed master's replica took over). */
  waitPromoted(masters: number, timeoutMs?: number): Promise<void>
  /** Waits until every live node reports cluster_state:ok and every slot is served. */
  waitHealthy(timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

export interface ClusterOptions {
  masters?: number
  replicas?: number
  /** RediSearch module to load into every node. */
  module?: string
  /** The redis-server binary of every node (default: `redis-server` on the PATH). */
  binary?: string
  /** Persist with the append-only file (fault tests, benchmarks); off by default. */
  appendOnly?: boolean
  /** cluster-node-timeout: how long a node may not answer before it counts as failed (default 2000 ms). */
  nodeTimeoutMs?: number
  /** appendfsync with the append-only file (default always). */
  appendFsync?: 'always' | 'everysec' | 'no'
}

/** A free port whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await freePort()
    // Neither the port nor its bus port may be another node's port or bus port.
    if (port + 10000 > 65535 || taken.has(port) || taken.has(port + 10000) || taken.has(port - 10000)) continue
    const { createServer } = await import('node:net')
    const busFree = await new Promise<boolean>((r) => {
      const probe = createServer()
      probe.once('error', () => r(false))
      probe.listen(port + 10000, '127.0.0.1', () => probe.close(() => r(true)))
    })
    if (busFree) return port
  }
}

function spawnNode(dir: string, port: number, options: ClusterOptions): ChildProcess {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes',
    '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', String(options.nodeTimeoutMs ?? 2000), '--dir', dir, '--save', '',
    '--dbfilename', `dump-${port}.rdb`, '--appendfilename', `appendonly-${port}.aof`, '--appenddirname', `aof-${port}`,
    '--appendonly', options.appendOnly ? 'yes' : 'no', '--appendfsync', options.appendFsync ?? 'always',
    '--auto-aof-rewrite-percentage', String(aofRewritePercentageOf(process.env)), '--cluster-replica-validity-factor', '0',
    // A replica that (re)joins syncs at once: Redis waits 5 s by default for more replicas before a diskless sync, and
    // with REPLICA_ACKS writes to its master are refused until it has synced.
    '--repl-diskless-sync-delay', '0']
  if (options.module) args.push('--loadmodule', resolve(options.module))
  args.push(...encodingArgs(options.binary))
  const child = spawn(options.binary ?? 'redis-server', args, { stdio: 'ignore' })
  child.on('error', () => {})
  // Above the processes that use it, as npm start's embedded server (EMBEDDED_REDIS_NICE).
  prioritize(child, embeddedRedisNiceOf(process.env))
  return child
}

async function ping(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
    probe.on('error', () => {})
    try {
      await probe.connect()
      if ((await probe.ping()) === 'PONG') return
    } catch { /* not up yet */ } finally { probe.disconnect() }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`redis-server on port ${port} did not answer within ${timeoutMs} ms`)
}

async function info(port: number, section: string): Promise<string> {
  const probe = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 })
  probe.on('error', () => {})
  try {
    return section === 'cluster' ? String(await probe.call('CLUSTER', 'INFO')) : await probe.info(section)
  } finally {
    probe.disconnect()
  }
}

/**
 * Starts the cluster and resolves once every slot is served. A port can be taken by another process between the
 * probe and the start: the cluster is then started again on other ports (three tries).
 */
export async function startRedisCluster(options: ClusterOptions = {}): Promise<LocalCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options)
    } catch (err) {
      if (attempt >= 3) throw err
    }
  }
}

async function startOnce(options: ClusterOptions): Promise<LocalCluster> {
  const masters = options.masters ?? 3
  const replicas = options.replicas ?? 1
  const dir = mkdtempSync(join(tmpdir(), 'svc-cluster-'))
  const taken = new Set<number>()
  const ports: number[] = []
  for (let i = 0; i < masters * (1 + replicas); i++) {
    const port = await freeClusterPort(taken)
    taken.add(port)
    ports.push(port)
  }
  const nodes: ClusterNode[] = ports.map((port) => ({ port, process: spawnNode(dir, port, options) }))
  const stopAll = async () => {
    await Promise.all(nodes.map(async (n) => {
      if (n.process.exitCode !== null || n.process.signalCode !== null) return
      const done = new Promise<void>((r) => n.process.once('exit', () => r()))
      n.process.kill('SIGKILL')
      await done
    }))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await Promise.all(ports.map((p) => ping(p, 30_000)))
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(replicas), '--cluster-yes'], { timeout: 60_000 })
  } catch (err) {
    await stopAll()
    throw err
  }
  const cluster: LocalCluster = {
    seeds: ports.map((p) => `127.0.0.1:${p}`).join(','),
    nodes,
    async masterPorts() {
      const found: number[] = []
      for (const n of nodes) {
        if (n.process.exitCode !== null || n.process.signalCode !== null) continue
        if (/role:master/.test(await info(n.port, 'replication').catch(() => ''))) found.push(n.port)
      }
      return found
    },
    async kill(port) {
      const node = nodes.find((n) => n.port === port)!
      const done = new Promise<void>((r) => node.process.once('exit', () => r()))
      node.process.kill('SIGKILL')
      await done
    },
    async restart(port) {
      const node = nodes.find((n) => n.port === port)!
      node.process = spawnNode(dir, port, options)
      await ping(port)
    },
    async addNode() {
      const port = await freeClusterPort(new Set(nodes.flatMap((n) => [n.port, n.port + 10000])))
      const node = { port, process: spawnNode(dir, port, options) }
      nodes.push(node)
      await ping(port, 30_000)
      return node
    },
    async removeNode(port) {
      const node = nodes.find((n) => n.port === port)!
      if (node.process.exitCode === null && node.process.signalCode === null) {
        const done = new Promise<void>((r) => node.process.once('exit', () => r()))
        node.process.kill('SIGKILL')
        await done
      }
      nodes.splice(nodes.indexOf(node), 1)
    },
    async waitPromoted(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while ((await cluster.masterPorts()).length < count) {
        if (Date.now() > deadline) throw new Error(`no replica took over within ${timeoutMs} ms`)
        await new Promise((r) => setTimeout(r, 50))
      }
      await cluster.waitHealthy(Math.max(0, deadline - Date.now()))
    },
    async waitHealthy(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const live = nodes.filter((n) => n.process.exitCode === null && n.process.signalCode === null)
        const states = await Promise.all(live.map((n) => info(n.port, 'cluster').catch(() => '')))
        if (states.every((s) => /cluster_state:ok/.test(s) && /cluster_slots_ok:16384/.test(s))) return
        if (Date.now() > deadline) throw new Error(`the cluster did not become healthy within ${timeoutMs} ms`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    stop: stopAll,
  }
  await cluster.waitHealthy()
  return cluster
}
