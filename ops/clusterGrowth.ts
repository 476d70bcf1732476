/**
 * Growing and shrinking a running Redis Cluster the way an operator does, with redis-cli (no Docker): add an empty
 * master and `rebalance --cluster-use-empty-masters` onto it; empty a master (`rebalance --cluster-weight
 * <id>=0`, which moves all its slots to the others) and `del-node` it. Used by the growth test
 * (test/faults/clusterGrowth.test.ts) and the growth drill (ops/bench/clusterGrowth.ts) on a local cluster
 * (ops/localCluster.ts); against a real cluster an operator runs the same redis-cli commands.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import type { LocalCluster } from './localCluster.ts'

const run = promisify(execFile)

/** `ask` of a short-lived connection to the node on `port`. */
async function onNode<T>(port: number, ask: (probe: Redis) => Promise<T>): Promise<T> {
  const probe = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, connectTimeout: 2000 })
  probe.on('error', () => {})
  try {
    return await ask(probe)
  } finally {
    probe.disconnect()
  }
}

const nodeId = (port: number): Promise<string> => onNode(port, async (probe) => String(await probe.call('CLUSTER', 'MYID')))

/** Keys a node holds (DBSIZE). */
export const keysOn = (port: number): Promise<number> => onNode(port, (probe) => probe.dbsize())

async function seedOf(cluster: LocalCluster, not?: number): Promise<string> {
  const port = (await cluster.masterPorts()).find((p) => p !== not)
  if (!port) throw new Error('no master to talk to')
  return `127.0.0.1:${port}`
}

/** The node ids a node knows (CLUSTER NODES), with "?" for one still in handshake; "" when it does not answer. */
async function acquaintances(port: number): Promise<string> {
  const nodes = await onNode(port, (probe) => probe.call('CLUSTER', 'NODES')).catch(() => '')
  if (!nodes) return ''
  const lines = String(nodes).trim().split('\n')
  return lines.map((l) => l.split(' ')).map(([id, , flags]) => (/handshake|noaddr/.test(flags ?? '') ? '?' : id)).sort().join(',')
}

/**
 * Waits until every node knows every other (CLUSTER NODES lists the same ids, none in handshake: a node that has
 * not met the new one refuses to migrate a slot to it, "I don't know about node"), says cluster_state:ok, and all
 * agree on the map (`redis-cli --cluster check` passes), twice in a row: gossip spreads a new node or epoch in a
 * few hundred ms, slower under load.
 */
async function waitAgreed(cluster: LocalCluster, seed: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (let agreed = 0; agreed < 2;) {
    const live = cluster.nodes.filter((n) => n.process.exitCode === null && n.process.signalCode === null)
    const known = await Promise.all(live.map((n) => acquaintances(n.port)))
    const acquainted = known.every((k) => k !== '' && !k.includes('?') && k === known[0] && k.split(',').length === live.length)
    // A node that joined moments ago says cluster_state:fail for a while (Redis waits before a master counts
    // itself ok), and refuses the keys MIGRATE brings it with CLUSTERDOWN: a move would stop half done.
    const healthy = acquainted && await cluster.waitHealthy(0).then(() => true, () => false)
    const ok = healthy && await run('redis-cli', ['--cluster', 'check', seed], { timeout: 30_000 }).then((r) => !/\[ERR\]|\[WARNING\]/.test(r.stdout), () => false)
    agreed = ok ? agreed + 1 : 0
    if (!ok && Date.now() > deadline) throw new Error(`the cluster's nodes did not agree on its configuration within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/**
 * A `redis-cli --cluster rebalance`, sent again when it refused to start because the nodes did not agree yet:
 * redis-cli checks before it moves anything, so a refusal changed nothing.
 */
async function rebalance(cluster: LocalCluster, seed: string, args: string[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await run('redis-cli', ['--cluster', 'rebalance', seed, ...args, '--cluster-yes'], { timeout: 600_000, maxBuffer: 64 << 20 })
      return
    } catch (err) {
      const said = String((err as { stdout?: string }).stdout ?? '')
      if (attempt >= 10 || !/Please fix your cluster problems/.test(said)) {
        throw new Error(`redis-cli --cluster rebalance ${args.join(' ')} failed: ${said.split('\n').slice(-8).join(' | ')} ${String((err as { stderr?: string }).stderr ?? '')}`)
      }
      await waitAgreed(cluster, seed)
    }
  }
}

/** Adds an empty master and moves its share of slots onto it; answers its port and how long the move took. */
export async function growByOneMaster(cluster: LocalCluster): Promise<{ port: number; joinMs: number; moveMs: number }> {
  const seed = await seedOf(cluster)
  const started = Date.now()
  const node = await cluster.addNode()
  await run('redis-cli', ['--cluster', 'add-node', `127.0.0.1:${node.port}`, seed], { timeout: 60_000 })
  await waitAgreed(cluster, seed)
  const joined = Date.now()
  await rebalance(cluster, seed, ['--cluster-use-empty-masters'])
  await cluster.waitHealthy(60_000)
  return { port: node.port, joinMs: joined - started, moveMs: Date.now() - joined }
}

/** Moves every slot off the master on `port` to the others and removes it; answers how long the move took. */
export async function shrinkMaster(cluster: LocalCluster, port: number): Promise<{ moveMs: number; removeMs: number }> {
  const seed = await seedOf(cluster, port)
  const id = await nodeId(port)
  const started = Date.now()
  await rebalance(cluster, seed, ['--cluster-weight', `${id}=0`])
  await waitAgreed(cluster, seed)
  const moved = Date.now()
  // del-node reads every node first and gives up on one that is slow to answer ("Unable to load info"),
  // before it changes anything: sent again after the nodes agree.
  for (let attempt = 1; ; attempt++) {
    const removed = await run('redis-cli', ['--cluster', 'del-node', seed, id], { timeout: 60_000 }).then(() => true, (err: { stdout?: string }) => {
      if (attempt >= 5 || !/Unable to load info/.test(String(err.stdout ?? ''))) throw new Error(`redis-cli --cluster del-node failed: ${String(err.stdout ?? err)}`)
      return false
    })
    if (removed) break
    await waitAgreed(cluster, seed)
  }
  await cluster.removeNode(port)
  await cluster.waitHealthy(60_000)
  return { moveMs: moved - started, removeMs: Date.now() - moved }
}
