/**
 * `npm run bench:growth`: the growth drill (ops/growthDrill.ts) at full size: a local Redis Cluster of 3 masters
 * (16 shards) holding 20,000 datasets grows to 4 masters and shrinks back to 3 while 8 query loops and 50 writes/s
 * run. BENCH_ENGINE=redisearch (with REDISEARCH_MODULE, and REDISEARCH_SERVER for a redis-server other than the
 * PATH's) for the redisearch engine; GROWTH_DATASETS to change the
 * size; PORT for the service (default 18550); LOG_LEVEL=info to see index placement. Prints the report (statuses,
 * failures, move and catch-up timings) and writes it to ops/bench/results/cluster-growth-<engine>[-GROWTH_LABEL].json.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startGateway } from '../../gateway/start.ts'
import { loadConfig } from '../../model/config.ts'
import { createLogger } from '../../model/log.ts'
import { startWorkers } from '../../workers/start.ts'
import { runGrowthDrill } from '../growthDrill.ts'
import { startRedisCluster } from '../localCluster.ts'

const engine = process.env.BENCH_ENGINE === 'redisearch' ? 'redisearch' : 'native'
const module = process.env.REDISEARCH_MODULE
if (engine === 'redisearch' && !module) throw new Error('BENCH_ENGINE=redisearch needs REDISEARCH_MODULE')
const datasets = Number(process.env.GROWTH_DATASETS ?? 20_000)
/** GROWTH_LABEL names the result file apart (two module versions, say). */
const label = process.env.GROWTH_LABEL ? `-${process.env.GROWTH_LABEL}` : ''

const cluster = await startRedisCluster({ masters: 3, replicas: 0, module: engine === 'redisearch' ? module : undefined, binary: process.env.REDISEARCH_SERVER || undefined })
const config = { ...loadConfig({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }), redisUrl: '', redisCluster: cluster.seeds.split(','), shards: 16, partitions: 16, searchEngine: engine, port: Number(process.env.PORT ?? 18550) } as const
const log = createLogger(config.logLevel, 'bench')
const workers = await startWorkers(config, log)
const gateway = await startGateway(config, log)
try {
  const report = await runGrowthDrill({ url: gateway.url, cluster, datasets, queryLoops: 8, writesPerSecond: 50, samples: 50, log: (line) => console.log(line) })
  console.log(JSON.stringify(report, null, 2))
  mkdirSync(join('ops', 'bench', 'results'), { recursive: true })
  writeFileSync(join('ops', 'bench', 'results', `cluster-growth-${engine}${label}.json`), `${JSON.stringify({ engine, datasets, ...report }, null, 2)}\n`)
} finally {
  await gateway.close()
  await workers.close()
  await cluster.stop()
}
