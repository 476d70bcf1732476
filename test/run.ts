/**
 * `npm test`: starts the run's Redis servers, runs every `*.test.ts` under test/ with uvu, and ends with the line
 * `N passed, N failed` (CI reads it). Arguments: an optional file-name pattern (`npm test -- urn`).
 */
import { parse } from 'uvu/parse'
import { run } from 'uvu/run'
import { startPlainRedis, startSearchRedis } from './helpers/redisServer.ts'

process.env.FORCE_COLOR = '0'
const pattern = process.argv[2] ? new RegExp(process.argv[2]) : /\.test\.ts$/
const plain = await startPlainRedis()
const search = await startSearchRedis()
process.env.TEST_REDIS_URL = plain.url
if (search) process.env.TEST_REDIS_SEARCH_URL = search.url
console.log(`redis for tests: ${plain.how}`)
console.log(search
  ? `redis with the search module: ${search.how} (the redisearch engine runs the conformance suite)`
  : 'redis with the search module: none found (set REDIS_SEARCH_URL or REDISEARCH_MODULE); redisearch tests will SKIP')

// uvu prints its own summary; capture it to print the line CI reads.
let captured = ''
const write = process.stdout.write.bind(process.stdout)
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
  return (write as (...args: unknown[]) => boolean)(chunk, ...rest)
}) as typeof process.stdout.write

const ctx = await parse('test', pattern, { ignore: ['fixtures', 'helpers'] })
ctx.suites = ctx.suites.filter((s) => s.name.endsWith('.test.ts') && pattern.test(s.name))
await run(ctx.suites, { bail: false })
process.stdout.write = write

const total = Number(/Total:\s+(\d+)/.exec(captured)?.[1] ?? 0)
const passed = Number(/Passed:\s+(\d+)/.exec(captured)?.[1] ?? 0)
const skipped = Number(/Skipped:\s+(\d+)/.exec(captured)?.[1] ?? 0)
await plain.stop()
await search?.stop()
const failed = total - passed
if (skipped > 0) console.log(`${skipped} skipped`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || total === 0 ? 1 : 0)
