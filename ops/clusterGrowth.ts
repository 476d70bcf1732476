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

async function nodeId(port: number): Promise<string> {
  const probe = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 })
  probe.on('error', () => {})
  try {
    return String(await probe.call('CLUSTER', 'MYID'))
  } finally {
    probe.disconnect()
  }
}

/** Keys a node holds (DBSIZE). */
export async function keysOn(port: number): Promise<number> {
  const probe = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 })
  probe.on('error', () => {})
  try {
    return await probe.dbsize()
  } finally {
    probe.disconnect()
  }
}

async function seedOf(cluster: LocalCluster, not?: number): Promise<string> {
  const port = (await cluster.masterPorts()).find((p) => p !== not)
  if (!port) throw new Error('no master to talk to')
  return `127.0.0.1:${port}`
}

/** Waits until every node agrees on the map (redis-cli --cluster check passes). */
async function waitAgreed(seed: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const ok = await run('redis-cli', ['--cluster', 'check', seed], { timeout: 30_000 }).then((r) => !/\[ERR\]|\[WARNING\]/.test(r.stdout), () => false)
    if (ok) return
    if (Date.now() > deadline) throw new Error(`the cluster's nodes did not agree on its configuration within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Adds an empty master and moves its share of slots onto it; answers its port and how long the move took. */
export async function growByOneMaster(cluster: LocalCluster): Promise<{ port: number; joinMs: number; moveMs: number }> {
  const seed = await seedOf(cluster)
  const started = Date.now()
  const node = await cluster.addNode()
  await run('redis-cli', ['--cluster', 'add-node', `127.0.0.1:${node.port}`, seed], { timeout: 60_000 })
  await waitAgreed(seed)
  const joined = Date.now()
  await run('redis-cli', ['--cluster', 'rebalance', seed, '--cluster-use-empty-masters', '--cluster-yes'], { timeout: 600_000, maxBuffer: 64 << 20 })
  await cluster.waitHealthy(60_000)
  return { port: node.port, joinMs: joined - started, moveMs: Date.now() - joined }
}

/** Moves every slot off the master on `port` to the others and removes it; answers how long the move took. */
export async function shrinkMaster(cluster: LocalCluster, port: number): Promise<{ moveMs: number; removeMs: number }> {
  const seed = await seedOf(cluster, port)
  const id = await nodeId(port)
  const started = Date.now()
  await run('redis-cli', ['--cluster', 'rebalance', seed, '--cluster-weight', `${id}=0`, '--cluster-yes'], { timeout: 600_000, maxBuffer: 64 << 20 })
  await waitAgreed(seed)
  const moved = Date.now()
  await run('redis-cli', ['--cluster', 'del-node', seed, id], { timeout: 60_000 })
  await cluster.removeNode(port)
  await cluster.waitHealthy(60_000)
  return { moveMs: moved - started, removeMs: Date.now() - moved }
}
