/**
 * Gateway crash and client disconnects: a client that goes away mid-request, or a gateway killed mid-request,
 * leaves either the whole change (every aspect of a snapshot) or none of it.
 */
import net from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { drained, FULL, startCluster, type Cluster } from '../helpers/faults.ts'
import { httpCall } from '../helpers/service.ts'

const ROUNDS = FULL ? 200 : 30
const t = suite<{ cluster: Cluster }>('faults: gateway crash, client disconnect')
t.before(async (ctx) => { ctx.cluster = await startCluster(1) })
t.after(async (ctx) => { await ctx.cluster.stop() })

const snapshot = (urn: string) => JSON.stringify({
  entity: { value: { 'com.svc.metadata.snapshot.DatasetSnapshot': { urn, aspects: [
    { 'com.svc.common.Status': { removed: false } },
    { 'com.svc.common.Ownership': { owners: [{ owner: 'urn:svc:corpuser:jdoe', type: 'DATAOWNER' }] } },
    { 'com.svc.dataset.DatasetProperties': { description: 'all or nothing' } },
  ] } } },
})
const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`

/** The snapshot's aspects stored for `urn`: all three or none. */
async function wholeOrNone(cluster: Cluster, urn: string): Promise<'whole' | 'none'> {
  const res = await httpCall(cluster.url, 'GET', `/entitiesV2/${encodeURIComponent(urn)}`)
  const have = ['status', 'ownership', 'datasetProperties'].filter((a) => a in res.body.aspects)
  assert.ok(have.length === 0 || have.length === 3, `${urn}: ${have.join(', ')}`)
  return have.length === 3 ? 'whole' : 'none'
}

/** Sends the request over a raw socket and closes it after `cut` bytes (or right after sending all of it). */
function sendAndHangUp(url: string, body: string, cut: number): Promise<void> {
  const { port } = new URL(url)
  const request = `POST /entities?action=ingest HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(request.slice(0, cut), () => { socket.destroy(); resolve() })
    })
    socket.on('error', () => resolve())
  })
}

t('clients hanging up at any point of the request: each snapshot is whole or absent', async ({ cluster }) => {
  const outcomes = { whole: 0, none: 0 }
  for (let i = 0; i < ROUNDS; i++) {
    const body = snapshot(ds(`hangup_${i}`))
    const full = Buffer.byteLength(body) + 120
    await sendAndHangUp(cluster.url, body, Math.floor((i / ROUNDS) * full * 1.2))
  }
  await drained(cluster)
  await new Promise((r) => setTimeout(r, 300))
  for (let i = 0; i < ROUNDS; i++) outcomes[await wholeOrNone(cluster, ds(`hangup_${i}`))]++
  console.log(`client disconnects: ${ROUNDS} requests cut at every point: ${outcomes.whole} whole, ${outcomes.none} absent, none partial`)
  assert.ok(outcomes.whole > 0 && outcomes.none > 0)
})

t('the gateway killed with SIGKILL mid-request: each snapshot is whole or absent; acknowledged ones are whole', async ({ cluster }) => {
  const acked = new Set<string>()
  const inFlight = Array.from({ length: ROUNDS }, async (_, i) => {
    const urn = ds(`killed_${i}`)
    await new Promise((r) => setTimeout(r, i * 3))
    const res = await httpCall(cluster.url, 'POST', '/entities?action=ingest', snapshot(urn)).catch(() => ({ status: 0 }))
    if (res.status === 200) acked.add(urn)
  })
  await new Promise((r) => setTimeout(r, ROUNDS * 1.5))
  const killedAt = Date.now()
  await cluster.restartGateway()
  const recovery = Date.now() - killedAt
  await Promise.all(inFlight)
  await drained(cluster)
  const outcomes = { whole: 0, none: 0 }
  for (let i = 0; i < ROUNDS; i++) {
    const urn = ds(`killed_${i}`)
    const outcome = await wholeOrNone(cluster, urn)
    if (acked.has(urn)) assert.is(outcome, 'whole', `${urn} was acknowledged`)
    outcomes[outcome]++
  }
  console.log(`gateway killed: ${ROUNDS} requests, ${acked.size} acknowledged, ${outcomes.whole} whole, ${outcomes.none} absent, new gateway serving after ${recovery} ms`)
})

t.run()
