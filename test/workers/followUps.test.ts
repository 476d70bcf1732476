/**
 * An asynchronous job whose follow-ups (the reference cleanup of a hard delete) cannot be queued still counts as
 * applied: `GET /writes/<id>` says `applied`, the entity is gone, and the failure is reported on its own. The
 * stand-in is the follow-up queuer only; Redis, the queues and the apply path are real.
 */
import type { Worker } from 'bullmq'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { FollowUp } from '../../model/jobs.ts'
import { connectForQueues, type RedisClient } from '../../model/store/redis.ts'
import { limitPartitions } from '../../model/services/writeQueues.ts'
import { startConsumers } from '../../workers/consumer.ts'
import { FollowUps } from '../../workers/followUps.ts'
import { startService, type TestService } from '../helpers/service.ts'

/** Fails where the real one would queue something: after a job that removed an entity. */
class UnreachableFollowUps extends FollowUps {
  override async after(...[, , job]: Parameters<FollowUps['after']>): Promise<FollowUp[]> {
    if (job.items.some((i) => i.op === 'delete' || i.op === 'deleteEntity')) throw new Error('follow-up queue unreachable')
    return []
  }
}

const t = suite<{ svc: TestService; connection: RedisClient; workers: Worker[]; failures: string[] }>('follow-ups that cannot be queued')

t.before(async (ctx) => {
  ctx.svc = await startService({}, { workers: false })
  const { config, model } = { config: ctx.svc.config, model: ctx.svc.gateway.model }
  ctx.connection = connectForQueues(config, 'test-follow-ups')
  ctx.failures = []
  await limitPartitions(ctx.connection, model.keys, config.partitions)
  const deps = { registry: model.registry, store: model.store, edges: model.edges, plan: model.plan }
  ctx.workers = startConsumers(config, ctx.connection, model.keys, deps, new UnreachableFollowUps(ctx.connection, model.keys, config.partitions), {
    onFollowUpFailed: (_p, job, err) => ctx.failures.push(`${job.id}: ${err.message}`),
  })
  await Promise.all(ctx.workers.map((w) => w.waitUntilReady()))
})
t.after(async (ctx) => {
  await Promise.all(ctx.workers.map((w) => w.close()))
  ctx.connection.disconnect()
  await ctx.svc.close()
})

t('the hard delete is applied and reported so; the lost cleanup is reported apart', async ({ svc, failures }) => {
  const urn = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,follow_up_target,PROD)'
  const written = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ description: 'to be removed' }), contentType: 'application/json' } } })
  assert.is(written.status, 200, JSON.stringify(written.body))
  const queued = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'DELETE', aspectName: 'datasetKey' }, async: 'true' })
  assert.is(queued.status, 200, JSON.stringify(queued.body))
  const id = queued.body.writeId as string
  let status = await svc.call('GET', `/writes/${id}`)
  for (let waited = 0; waited < 20_000 && !['applied', 'failed'].includes(status.body.state); waited += 100) {
    await new Promise((r) => setTimeout(r, 100))
    status = await svc.call('GET', `/writes/${id}`)
  }
  assert.is(status.body.state, 'applied', JSON.stringify(status.body))
  assert.is((await svc.call('GET', `/aspects/${encodeURIComponent(urn)}?aspect=datasetProperties&version=0`)).status, 404)
  assert.equal(failures, [`${id}: follow-up queue unreachable`])
})

t.run()
