/**
 * REDIS_URL as a unix socket's path (how `npm start`'s processes reach its embedded Redis): on each engine the
 * service writes, reads and searches through the socket, the redisearch engine's own connection (node-redis)
 * included, and no connection of the service goes over TCP. The embedded server's socket lies in a folder of its
 * own (a data folder's file system may refuse sockets, its path be too long for one), removed when it stops.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Redis } from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { socketPathOf } from '../../model/store/redis.ts'
import { startEmbeddedRedis, type EmbeddedRedis } from '../../ops/embeddedRedis.ts'
import { searchStack } from '../helpers/redisServer.ts'
import { otherClients } from '../helpers/store.ts'
import { startService, type TestService } from '../helpers/service.ts'

const paths = suite('REDIS_URL: a socket path or a redis:// URL')

paths('a path is a unix socket; a redis:// URL is TCP', () => {
  assert.is(socketPathOf('/run/redis/redis.sock'), '/run/redis/redis.sock')
  assert.is(socketPathOf('redis://127.0.0.1:6380'), undefined)
  assert.is(socketPathOf('redis://:secret@redis.internal:6379/0'), undefined)
})

paths('the embedded server listens on a socket in a folder of its own, gone when the server stops', async () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-sock-')), 'x'.repeat(120))
  const server = await startEmbeddedRedis({ dataDir, appendFsync: 'no', socket: true })
  try {
    assert.ok(!server.localUrl.startsWith(dataDir), server.localUrl)
    assert.ok(Buffer.byteLength(server.localUrl) <= 107, server.localUrl)
    const client = new Redis(server.localUrl)
    assert.is(await client.ping(), 'PONG')
    client.disconnect()
  } finally {
    await server.stop()
  }
  assert.not.ok(existsSync(dirname(server.localUrl)), 'the socket folder is removed')
  const plain = await startEmbeddedRedis()
  assert.is(plain.localUrl, plain.url, 'without socket: the TCP URL')
  await plain.stop()
})

paths.run()

const stack = searchStack()
const engines = [{ name: 'native', module: undefined, binary: undefined }, ...(stack ? [{ name: 'redisearch', module: stack.module, binary: stack.binary }] : [])]
if (!stack) console.log('REDIS_URL a socket path [redisearch]: SKIPPED, no Redis with the search module was found')

for (const engine of engines) {
  const t = suite<{ server: EmbeddedRedis; svc: TestService }>(`REDIS_URL a socket path [${engine.name}]`)
  t.before(async (ctx) => {
    ctx.server = await startEmbeddedRedis({ socket: true, module: engine.module, binary: engine.binary })
    ctx.svc = await startService({ redisUrl: ctx.server.localUrl, redisCluster: [], shards: 1, searchEngine: engine.name as 'native' | 'redisearch' })
  })
  t.after(async (ctx) => {
    await ctx.svc?.close()
    await ctx.server?.stop()
  })

  t('writes, reads and searches go through the socket, and no connection of the service uses TCP', async ({ svc, server }) => {
    const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,sock.orders,PROD)'
    const write = await svc.call('POST', '/aspects?action=ingestProposal', {
      proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ name: 'orders', description: 'socket orders' }), contentType: 'application/json' } },
    })
    assert.is(write.status, 200, JSON.stringify(write.body))
    const read = await svc.call('GET', `/entitiesV2/${encodeURIComponent(urn)}`)
    assert.is(read.status, 200)
    assert.is(read.body.aspects.datasetProperties.value.description, 'socket orders')
    const found = await svc.call('POST', '/entities?action=search', { entity: 'dataset', input: 'orders', start: 0, count: 10 })
    assert.is(found.status, 200, JSON.stringify(found.body))
    assert.equal(found.body.value.entities, [urn])
    const platform = found.body.value.metadata.searchResultMetadatas.find((a: { name: string }) => a.name === 'platform')
    assert.equal(Object.values(platform?.aggregations ?? {}), [1], JSON.stringify(platform))
    const clients = await otherClients(server.port)
    assert.ok(clients.length >= 3, String(clients.length))
    for (const c of clients) assert.match(c, / flags=\S*U/, c)
  })

  t.run()
}
