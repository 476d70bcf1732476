/**
 * Growing and shrinking a Redis Cluster under load (runs in the cluster pass), on each search engine: a local
 * cluster of 3 masters holding a catalogue grows to 4 masters (`redis-cli --cluster add-node`, `rebalance
 * --cluster-use-empty-masters`) and shrinks back to 3 (`rebalance --cluster-weight <id>=0`, `del-node`) while
 * query loops search and a writer writes (ops/growthDrill.ts). No answer is a 5xx or a timeout; afterwards every
 * sampled dataset reads back and is found by its name, `*` counts every dataset, and the new master held data.
 * On the redisearch engine each moved shard's index followed its slot (model/search/redisearch/placement.ts).
 * About 1.5 minutes for both engines on the 2-core machine; `npm run bench:growth` runs the same drill at 20,000
 * datasets.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { searchStack } from '../helpers/redisServer.ts'
import { startRedisCluster, type LocalCluster } from '../../ops/localCluster.ts'
import { runGrowthDrill } from '../../ops/growthDrill.ts'
import { onCluster, startService, type TestService } from '../helpers/service.ts'

const DATASETS = 2_000
const stack = searchStack()
const engines = (['native', 'redisearch'] as const).filter((e) => e === 'native' || stack)

for (const engine of engines) {
  const t = suite<{ cluster: LocalCluster; svc: TestService }>(`faults: Redis Cluster growth [${engine}]`)
  if (!onCluster()) {
    t.skip('runs in the cluster pass only', () => {})
  } else {
    t.before(async (ctx) => {
      ctx.cluster = await startRedisCluster({ masters: 3, replicas: 0, ...(engine === 'redisearch' ? { module: stack!.module, binary: stack!.binary } : {}) })
      ctx.svc = await startService({ redisUrl: '', redisCluster: ctx.cluster.seeds.split(','), shards: 16, partitions: 4, searchEngine: engine })
    })
    t.after(async (ctx) => {
      await ctx.svc?.close()
      await ctx.cluster?.stop()
    })

    t(`${DATASETS} datasets: grow 3 -> 4 masters and shrink back under load, no 5xx, search exact after each move`, async ({ cluster, svc }) => {
      const report = await runGrowthDrill({ url: svc.url, cluster, datasets: DATASETS, queryLoops: 8, writesPerSecond: 50, samples: 50 })
      console.log(`cluster growth [${engine}${engine === 'redisearch' ? `, ${stack!.name}` : ''}]: ${JSON.stringify({ ...report, failures: undefined })}`)
      if (report.failures.length > 0) console.log(report.failures.join('\n'))
      assert.equal(report.failures, [], 'no 5xx and no timeouts during the moves')
      for (const c of report.checks) assert.equal(c, { notReadBack: 0, notFound: 0, starTotal: DATASETS })
      assert.ok(report.newMasterKeys > 0, 'the new master held data')
      for (const m of report.moves) assert.ok(m.searchExactAfterMs >= 0, `${m.what}: search exact again within 2 minutes`)
      assert.ok(report.writes > 50 && report.queries > 100, `load ran (${report.writes} writes, ${report.queries} queries)`)
    })
  }
  t.run()
}
