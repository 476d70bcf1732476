/**
 * A waited write whose job vanishes from its queue (its queue's master failed over before a replica had the job)
 * is answered 503 WRITE_NOT_CONFIRMED within seconds, not left to the client's timeout.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openQueue } from '../../model/services/writeQueues.ts'
import { Keys } from '../../model/store/keys.ts'
import { connectForRequests } from '../../model/store/redis.ts'
import { startService } from '../helpers/service.ts'

const t = suite('gateway: a write whose job is lost')

t('the waiting request is answered 503 WRITE_NOT_CONFIRMED, naming the job', async () => {
  // No workers: the job waits in its queue until the test removes it, as a failover that lost it would.
  const svc = await startService({ partitions: 1 }, { workers: false })
  const redis = connectForRequests(svc.config, 'lost-jobs-test')
  const queue = openQueue(redis, new Keys(svc.config.keyPrefix, svc.config.shards), 0)
  try {
    const answer = svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'tag', entityUrn: 'urn:svc:tag:lost', changeType: 'UPSERT', aspectName: 'tagProperties', aspect: { value: '{"name":"lost"}', contentType: 'application/json' } } })
    let waiting = await queue.getWaiting()
    for (let i = 0; waiting.length === 0 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20))
      waiting = await queue.getWaiting()
    }
    assert.is(waiting.length, 1)
    await waiting[0]!.remove()
    const res = await answer
    assert.is(res.status, 503)
    assert.is(res.body.code, 'WRITE_NOT_CONFIRMED')
    assert.match(res.body.message, waiting[0]!.id!)
    assert.match(res.body.message, /lost from its queue/)
    assert.ok(res.headers.get('retry-after'))
  } finally {
    await queue.close()
    redis.disconnect()
    await svc.close()
  }
})

t.run()
