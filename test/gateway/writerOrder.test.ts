/**
 * The gateway's writer gathers writes that arrive while a partition's job is in flight into the next job
 * (gateway/writer.ts): writes submitted one after another without waiting, to the same entities on one partition,
 * apply in the order they were submitted (the versions of each aspect list them in that order) and each is answered
 * with its own result.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { WriteItem } from '../../model/jobs.ts'
import { startService, type TestService } from '../helpers/service.ts'

const t = suite<{ svc: TestService }>('gateway: writes in flight on one partition')
t.before(async (ctx) => { ctx.svc = await startService({ partitions: 1 }) })
t.after(async (ctx) => { await ctx.svc.close() })

const urns = ['urn:svc:tag:order_a', 'urn:svc:tag:order_b']
const write = (urn: string, name: string): WriteItem => ({ op: 'upsert', urn, entityType: 'tag', aspects: [{ name: 'tagProperties', value: { name } }] })

t('writes submitted without waiting apply in submission order, each answered with its own result', async ({ svc }) => {
  const sent: string[][] = [[], []]
  const answers = []
  for (let i = 0; i < 60; i++) {
    // Bursts of a few at once, so that later writes gather while jobs are in flight, and single ones between them.
    const k = i % 2
    sent[k]!.push(`v${i}`)
    answers.push(svc.gateway.writer.submit([write(urns[k]!, `v${i}`)], 'urn:svc:corpuser:order_test'))
    if (i % 7 === 6) await new Promise((r) => setTimeout(r, 2))
  }
  const results = await Promise.all(answers)
  // Each answer is its own write's: its urn, and a change (the first write of an entity also makes its key aspect).
  results.forEach((r, i) => assert.equal(r.map((x) => [x.urn, x.changes > 0]), [[urns[i % 2], true]], `write ${i}`))
  const name = (body: { aspect: Record<string, { name: string }> }) => Object.values(body.aspect)[0]!.name
  for (const [k, urn] of urns.entries()) {
    // Version 0 is the latest; 1, 2... the earlier values, the first written first.
    const stored: string[] = []
    for (let version = 1; version < sent[k]!.length; version++) {
      const res = await svc.call('GET', `/aspects/${encodeURIComponent(urn)}?aspect=tagProperties&version=${version}`)
      assert.is(res.status, 200, `${urn} version ${version}`)
      stored.push(name(res.body))
    }
    stored.push(name((await svc.call('GET', `/aspects/${encodeURIComponent(urn)}?aspect=tagProperties&version=0`)).body))
    assert.equal(stored, sent[k], urn)
  }
})

t.run()
