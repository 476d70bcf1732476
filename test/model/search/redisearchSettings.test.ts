/**
 * The module settings the redisearch engine sets on every node holding its indexes (model/search/redisearch/engine.ts
 * nodeSettings), on the pass's Redis with the search module (skipped without one): wildcards expand to every value,
 * and the garbage collector forks every REDISEARCH_GC_INTERVAL seconds (300 by default; 0 leaves the module's own).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Cluster, Redis } from 'ioredis'
import { REDISEARCH_GC_INTERVAL_DEFAULT } from '../../../model/config.ts'
import { nodeSettings } from '../../../model/search/redisearch/engine.ts'
import { startService, testSearchTarget } from '../../helpers/service.ts'

test('the settings: every expansion, and the collector\'s interval unless it is 0', () => {
  assert.equal(nodeSettings(300), [['FT.CONFIG', 'SET', 'MAXPREFIXEXPANSIONS', '100000000'], ['FT.CONFIG', 'SET', 'FORK_GC_RUN_INTERVAL', '300']])
  assert.equal(nodeSettings(0), [['FT.CONFIG', 'SET', 'MAXPREFIXEXPANSIONS', '100000000']])
})

const target = testSearchTarget()
if (!target) {
  test.skip('SKIPPED: no Redis with the search module', () => {})
  console.log('redisearch node settings: SKIPPED, no Redis with the search module was found')
} else {
  /** FT.CONFIG GET `name` on every master of the pass's search Redis. */
  async function settingEverywhere(name: string): Promise<string[]> {
    const client = target!.redisCluster.length > 0
      ? new Cluster(target!.redisCluster.map((seed) => { const [host, port] = seed.split(':'); return { host: host!, port: Number(port) } }))
      : new Redis(target!.redisUrl)
    try {
      if (client instanceof Cluster) await new Promise<void>((resolve, reject) => { client.once('ready', resolve); client.once('error', reject) })
      const nodes = client instanceof Cluster ? client.nodes('master') : [client]
      return await Promise.all(nodes.map(async (node) => {
        const reply = (await node.call('FT.CONFIG', 'GET', name)) as string[][]
        return String(reply[0]![1])
      }))
    } finally {
      client.disconnect()
    }
  }

  test('a service on the redisearch engine sets the collector\'s interval on every node, and the default back', async () => {
    const svc = await startService({ searchEngine: 'redisearch', ...target, redisearchGcInterval: 45 })
    try {
      assert.ok((await settingEverywhere('FORK_GC_RUN_INTERVAL')).every((v) => v === '45'))
      assert.ok((await settingEverywhere('MAXPREFIXEXPANSIONS')).every((v) => v === '100000000'))
    } finally {
      await svc.close()
    }
    const again = await startService({ searchEngine: 'redisearch', ...target })
    try {
      assert.ok((await settingEverywhere('FORK_GC_RUN_INTERVAL')).every((v) => v === String(REDISEARCH_GC_INTERVAL_DEFAULT)))
    } finally {
      await again.close()
    }
  })
}

test.run()
