/**
 * What a write costs in queue round trips: one after another, each job is taken with one blocking read and one
 * `moveToActive` (model/services/writeQueues.ts partitionWorker clears the wake-up marker BullMQ sets as it hands
 * a job out, which had woken the worker at once to a second pair that found the partition at its limit). Counted on
 * a Redis of its own, whose command counts nothing else touches.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Redis } from 'ioredis'
import { commandTimes, resetCommandStats } from '../../ops/bench/liveRedis.ts'
import { startEmbeddedRedis, type EmbeddedRedis } from '../../ops/embeddedRedis.ts'
import { startService, type TestService } from '../helpers/service.ts'

const WRITES = 30
/** How long a worker's blocking read waits for a job before it is sent again (BullMQ's drainDelay). */
const BLOCK_MS = 5000
const t = suite<{ redis: EmbeddedRedis; counter: Redis; svc: TestService }>('queue round trips per write')

t.before(async (ctx) => {
  ctx.redis = await startEmbeddedRedis()
  ctx.counter = new Redis(ctx.redis.url)
  ctx.svc = await startService({ redisUrl: ctx.redis.url, redisCluster: [], shards: 1 })
})
t.after(async (ctx) => {
  await ctx.svc.close()
  ctx.counter.disconnect()
  await ctx.redis.stop()
})

t('writes one after another take one blocking read each, not two', async ({ svc, counter }) => {
  const urn = 'urn:svc:corpuser:round-trips'
  const write = (n: number) => svc.call('POST', '/aspects?action=ingestProposal', {
    proposal: { entityType: 'corpuser', entityUrn: urn, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ active: true, displayName: `write-${n}` }), contentType: 'application/json' } },
  })
  assert.is((await write(0)).status, 200)
  await new Promise((r) => setTimeout(r, 100))
  await resetCommandStats([counter])
  const started = performance.now()
  for (let n = 1; n <= WRITES; n++) assert.is((await write(n)).status, 200)
  await new Promise((r) => setTimeout(r, 100))
  // One per write, and those of partitions whose blocking reads timed out meanwhile (BullMQ's drainDelay, 5 s).
  const timedOut = svc.config.partitions * Math.ceil((performance.now() - started) / BLOCK_MS)
  const reads = (await commandTimes([counter], Infinity)).find((c) => c.command === 'bzpopmin')?.calls ?? 0
  assert.ok(reads <= WRITES + timedOut, `${reads} blocking reads for ${WRITES} writes (two per write: ${2 * WRITES}; timeouts allowed: ${timedOut})`)
  assert.ok(reads >= WRITES, `${reads} blocking reads for ${WRITES} writes`)
})

t.run()
