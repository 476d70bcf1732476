/**
 * The outcome of an asynchronous write outlives BullMQ's record of its job: `GET /writes/<id>` still answers
 * `applied`, item by item, once the queue's finished jobs were trimmed (as BullMQ does after about a minute).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openQueue } from '../../model/services/writeQueues.ts'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService }>('async write records')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

const urn = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const proposal = (name: string, description: string) => ({ entityType: 'dataset', entityUrn: urn(name), changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ description }), contentType: 'application/json' } })

async function settled(svc: TestService, id: string) {
  let status = await svc.call('GET', `/writes/${id}`)
  for (let waited = 0; waited < 20_000 && !['applied', 'failed'].includes(status.body.state); waited += 50) {
    await new Promise((r) => setTimeout(r, 50))
    status = await svc.call('GET', `/writes/${id}`)
  }
  return status
}

t('an applied write is still reported, with its results, after the queue trimmed its finished jobs', async ({ svc }) => {
  const res = await svc.call('POST', '/aspects?action=ingestProposalBatch', { proposals: [proposal('record_a', 'one'), proposal('record_b', 'two')], async: 'true' })
  assert.is(res.status, 200, JSON.stringify(res.body))
  const ids = [...new Set((res.body.value.results as { writeId: string }[]).map((r) => r.writeId))]
  const before = await Promise.all(ids.map((id) => settled(svc, id)))
  assert.ok(before.every((s) => s.body.state === 'applied'), JSON.stringify(before.map((s) => s.body)))

  const { config, model } = { config: svc.config, model: svc.gateway.model }
  await Promise.all(Array.from({ length: config.partitions }, async (_, p) => {
    const queue = openQueue(model.redis, model.keys, p)
    await queue.clean(0, 100_000, 'completed')
    await queue.close()
  }))
  for (const [i, id] of ids.entries()) {
    const after = await svc.call('GET', `/writes/${id}`)
    assert.is(after.status, 200, JSON.stringify(after.body))
    assert.equal(after.body, before[i]!.body)
  }
  const urns = before.flatMap((s) => (s.body.results as { urn: string }[]).map((r) => r.urn)).sort()
  assert.equal(urns, [urn('record_a'), urn('record_b')])
})

t.run()
