/**
 * The request connection (model/store/redis.ts) on the pass's Redis: the commands a moment sends to every shard
 * come back right and in order; on a cluster they leave in one socket write per master (writtenPerTick), not one
 * write per command.
 */
import type { Socket } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Keys } from '../../../model/store/keys.ts'
import { connectForRequests, isCluster } from '../../../model/store/redis.ts'
import { onCluster, testRedisTarget } from '../../helpers/service.ts'

const t = suite('store: the request connection')

t("a moment's commands to every shard: answered in order, one socket write per node on a cluster", async () => {
  const target = testRedisTarget()
  const redis = connectForRequests(target, 'request-connection-test')
  const keys = new Keys(`test:reqconn:${process.pid}:`, target.shards)
  const names = keys.allShards().flatMap((shard) => [0, 1, 2, 3].map((i) => `${keys.shardPrefix(shard)}k${i}`))
  try {
    await redis.ping()
    await Promise.all(names.map((name, i) => redis.set(name, `v${i}`)))
    // Count the socket writes of the next moment's commands (a socket's _write and _writev, as Node calls them).
    let writes = 0
    const restore: (() => void)[] = []
    const sockets = isCluster(redis) ? redis.nodes('master').map((node) => node.stream as Socket) : []
    for (const socket of sockets) {
      const s = socket as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void }
      const [one, many] = [s._write, s._writev]
      s._write = (...a) => { writes++; one.apply(socket, a) }
      s._writev = (...a) => { writes++; many.apply(socket, a) }
      restore.push(() => { s._write = one; s._writev = many })
    }
    const got = await Promise.all(names.map((name) => redis.get(name)))
    for (const undo of restore) undo()
    assert.equal(got, names.map((_, i) => `v${i}`))
    if (onCluster()) {
      assert.ok(sockets.length >= 2, 'the cluster has several masters')
      assert.ok(writes <= sockets.length, `${names.length} commands over ${sockets.length} masters left in ${writes} writes`)
    }
  } finally {
    await Promise.all(names.map((name) => redis.del(name)))
    redis.disconnect()
  }
})

t.run()
