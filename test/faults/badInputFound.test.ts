/**
 * Bad input the fuzzer (fuzz.test.ts) found mishandled, one plain test each, so that each fault reads on its own:
 * query parameters given as objects, urns with lone surrogates, bodies that are not UTF-8, an over-long request
 * line. Each must be a 4xx with the catalogue's error body, and nothing may be stored.
 */
import net from 'node:net'
import type { RedisClient } from '../../model/store/redis.ts'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startCluster, type Cluster } from '../helpers/faults.ts'
import { httpCall } from '../helpers/service.ts'
import { snapshotStore } from '../helpers/store.ts'

const t = suite<{ cluster: Cluster; redis: RedisClient }>('faults: bad input the fuzzer found')
t.before(async (ctx) => {
  ctx.cluster = await startCluster(1)
  ctx.redis = ctx.cluster.connect()
})
t.after(async (ctx) => {
  ctx.redis.disconnect()
  await ctx.cluster.stop()
})

const ds = encodeURIComponent('urn:svc:dataset:(urn:svc:dataPlatform:hive,found,PROD)')
const isErrorBody = (body: any, status: number) => body?.status === status && typeof body.code === 'string' && typeof body.message === 'string' && Array.isArray(body.details)
const userInfo = (urn: string, displayName: string) => JSON.stringify({ proposal: { entityType: 'corpuser', entityUrn: urn, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ active: true, displayName }), contentType: 'application/json' } } })

/** The query parser turns `name[a]=b` into an object; routes expecting a string or list must refuse it, not throw. */
t('query parameters in bracket form (aspects[a]=b) are a 400, not a 500', async ({ cluster }) => {
  for (const path of [`/entitiesV2/${ds}?aspects[a]=b`, `/entitiesV2?ids=List(${ds})&aspects[a]=b`, `/relationships?direction=OUTGOING&urn=${ds}&types[a]=b`,
    `/relationships?types=OwnedBy&urn=${ds}&direction[a]=b`, `/lineage?urn=${ds}&direction[a]=b`]) {
    const res = await httpCall(cluster.url, 'GET', path)
    assert.is(res.status, 400, `${path}: ${JSON.stringify(res.body)}`)
    assert.ok(isErrorBody(res.body, 400))
  }
})

/** Redis keys are UTF-8: a lone surrogate is written as U+FFFD, so `corpuser:\ud800` would share `corpuser:\ufffd`'s entity. */
t('a urn with a lone surrogate is refused (INVALID_URN) and nothing is stored', async ({ cluster, redis }) => {
  const before = await snapshotStore(redis, cluster.env.KEY_PREFIX!)
  const res = await httpCall(cluster.url, 'POST', '/aspects?action=ingestProposal', userInfo('urn:svc:corpuser:lone\ud800', 'x'))
  assert.is(res.status, 400, JSON.stringify(res.body))
  assert.is(res.body.code, 'INVALID_URN')
  assert.equal([...(await snapshotStore(redis, cluster.env.KEY_PREFIX!)).keys()], [...before.keys()])
})

/** JSON text is UTF-8; decoding other bytes as U+FFFD would store text the client never sent. */
t('a body that is not UTF-8 is refused (400) and nothing is stored', async ({ cluster, redis }) => {
  const before = await snapshotStore(redis, cluster.env.KEY_PREFIX!)
  const [head, tail] = userInfo('urn:svc:corpuser:latin1', 'Jos_MARK_').split('_MARK_') as [string, string]
  const body = Buffer.concat([Buffer.from(head), Buffer.from([0xe9]), Buffer.from(tail)]) // "José" in Latin-1
  const res = await fetch(`${cluster.url}/aspects?action=ingestProposal`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
  const answer = await res.json() as unknown
  assert.is(res.status, 400, JSON.stringify(answer))
  assert.ok(isErrorBody(answer, 400))
  assert.equal([...(await snapshotStore(redis, cluster.env.KEY_PREFIX!)).keys()], [...before.keys()])
})

/** Node's HTTP parser refuses a request line over 16 KiB by itself, with an empty body (no `clientError` handler). */
t('an over-long request line (a 20 KB urn) gets 431 with the error body', async ({ cluster }) => {
  const { port } = new URL(cluster.url)
  const answer = await new Promise<string>((resolve) => {
    let out = ''
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`GET /entitiesV2/urn%3Asvc%3Acorpuser%3A${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))
    socket.on('data', (d) => { out += d.toString() })
    socket.on('close', () => resolve(out))
  })
  const [head, body] = answer.split('\r\n\r\n') as [string, string | undefined]
  assert.match(head, /^HTTP\/1\.1 431 /)
  let parsed: unknown
  try { parsed = JSON.parse(body ?? '') } catch { /* not JSON */ }
  assert.ok(isErrorBody(parsed, 431), `the body of the 431: ${JSON.stringify(body)}`)
})

t.run()
