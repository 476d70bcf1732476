/**
 * One test pass on one topology (TEST_TOPOLOGY: standalone or cluster), started by test/run.ts: starts the pass's
 * Redis (a plain server and, when a module is at hand, one with the search module; or a local Redis Cluster,
 * with the module loaded in every node when one is at hand), runs the matching `*.test.ts` files with uvu, and
 * ends with `N passed, N failed`.
 */
import { parse } from 'uvu/parse'
import { run } from 'uvu/run'
import { startRedisCluster } from '../ops/localCluster.ts'
import { searchStack, startPlainRedis, startSearchRedis } from './helpers/redisServer.ts'

process.env.FORCE_COLOR = '0'
const topology = process.env.TEST_TOPOLOGY ?? 'standalone'
const pattern = process.argv[2] ? new RegExp(process.argv[2]) : /\.test\.ts$/
const only = process.env.TEST_ONLY ? new RegExp(process.env.TEST_ONLY) : undefined

const stops: (() => Promise<void>)[] = []
if (topology === 'cluster') {
  const stack = searchStack()
  const cluster = await startRedisCluster({ module: stack?.module, binary: stack?.binary })
  stops.push(() => cluster.stop())
  process.env.TEST_REDIS_CLUSTER = cluster.seeds
  if (stack) process.env.TEST_REDIS_SEARCH_CLUSTER = cluster.seeds
  console.log(`redis for tests: a local Redis Cluster of 3 masters and 3 replicas (${cluster.seeds})`)
  console.log(stack
    ? `redis with the search module: the same cluster, every node running ${stack.name} (the redisearch engine runs the conformance suite)`
    : 'redis with the search module: none found (../shared/redis-stack, or set REDISEARCH_MODULE); redisearch tests will SKIP')
} else {
  const plain = await startPlainRedis()
  const search = await startSearchRedis()
  stops.push(() => plain.stop(), async () => { await search?.stop() })
  process.env.TEST_REDIS_URL = plain.url
  if (search) process.env.TEST_REDIS_SEARCH_URL = search.url
  console.log(`redis for tests: ${plain.how}`)
  console.log(search
    ? `redis with the search module: ${search.how} (the redisearch engine runs the conformance suite)`
    : 'redis with the search module: none found (../shared/redis-stack, or set REDIS_SEARCH_URL or REDISEARCH_MODULE); redisearch tests will SKIP')
}

// uvu prints its own summary; capture it to print the line test/run.ts reads.
let captured = ''
const write = process.stdout.write.bind(process.stdout)
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
  return (write as (...args: unknown[]) => boolean)(chunk, ...rest)
}) as typeof process.stdout.write

const ctx = await parse('test', pattern, { ignore: ['fixtures', 'helpers'] })
ctx.suites = ctx.suites.filter((s) => s.name.endsWith('.test.ts') && pattern.test(s.name) && (!only || only.test(s.name)))
if (ctx.suites.length > 0) await run(ctx.suites, { bail: false })
process.stdout.write = write

const total = Number(/Total:\s+(\d+)/.exec(captured)?.[1] ?? 0)
const passed = Number(/Passed:\s+(\d+)/.exec(captured)?.[1] ?? 0)
const skipped = Number(/Skipped:\s+(\d+)/.exec(captured)?.[1] ?? 0)
for (const stop of stops) await stop()
const failed = total - passed
if (skipped > 0) console.log(`${skipped} skipped`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
