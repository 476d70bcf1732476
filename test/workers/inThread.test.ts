/**
 * The workers in a thread of their own, as `npm start` runs them (workers/inThread.ts): a gateway of the same
 * process gets its writes applied by them, its `/metrics` shows the thread's worker metrics beside its own, and
 * closing stops the thread without calling it a crash; workers that cannot start fail the start.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { metricsText } from '../../model/metricsText.ts'
import { startWorkersThread } from '../../workers/inThread.ts'
import { startService } from '../helpers/service.ts'

/**
 * How many registries show the workers' metrics in this process's text. This process registers them too (the test
 * helpers import the workers), and other tests in it count jobs there, so the thread's are told apart by count.
 */
const workerRegistries = async () => ((await metricsText()).body.match(/^# TYPE svc_jobs_applied_total /gm) ?? []).length

test('writes are applied by the workers\' thread, whose metrics the gateway shows, and it closes cleanly', async () => {
  const svc = await startService({}, { workers: false })
  const own = await workerRegistries()
  const crashes: Error[] = []
  const workers = await startWorkersThread(svc.config, (err) => crashes.push(err))
  try {
    const urn = 'urn:svc:corpuser:threaded'
    const res = await svc.call('POST', '/aspects?action=ingestProposal', {
      proposal: { entityType: 'corpuser', entityUrn: urn, changeType: 'UPSERT', aspectName: 'corpUserInfo', aspect: { value: JSON.stringify({ active: true, displayName: 'In a thread' }), contentType: 'application/json' } },
    })
    assert.is(res.status, 200, JSON.stringify(res.body))
    const read = await svc.call('GET', `/entitiesV2/${encodeURIComponent(urn)}`)
    assert.is(read.status, 200)
    assert.is(read.body.aspects.corpUserInfo.value.displayName, 'In a thread')
    const metrics = await svc.call('GET', '/metrics')
    assert.is(metrics.status, 200)
    assert.match(metrics.body, /svc_jobs_applied_total\{partition="\d+"\} \d+/)
    assert.match(metrics.body, /svc_http_requests_total\{/)
    assert.is(await workerRegistries(), own + 1, 'the thread\'s metrics beside this process\'s')
  } finally {
    await workers.close()
    await workers.close()
    await svc.close()
  }
  assert.equal(crashes, [], 'closing is no crash')
  assert.is(await workerRegistries(), own, 'a closed thread\'s metrics are gone')
})

test('workers that cannot start fail the start, which is no crash', async () => {
  const svc = await startService({}, { workers: false })
  const crashes: Error[] = []
  try {
    // The store's layout record (written by the gateway) says how many shards it has: workers with another count refuse.
    const failed = await startWorkersThread({ ...svc.config, shards: svc.config.shards + 1 }, (err) => crashes.push(err)).then(() => undefined, (err: Error) => err)
    assert.ok(failed instanceof Error, 'the start fails')
    assert.match(failed.message, /shard/i)
    await new Promise((r) => setTimeout(r, 200))
    assert.equal(crashes, [])
  } finally {
    await svc.close()
  }
})

test.run()
