/**
 * `node ops/bench/kindProbe.ts`: where one query's Redis time goes, per kind of the live scenario (liveQueries.ts).
 * Against a running gateway (PROBE_URL, default http://127.0.0.1:7792) and its Redis (PROBE_REDIS, a port on
 * 127.0.0.1, default 7791: one server, e.g. a store kept by BENCH_LIVE_DATA_DIR), it asks PROBE_N queries of each
 * kind (PROBE_KINDS, a regex), one at a time, drawn with PROBE_SEED, and for each prints the answer's status and time
 * and every Redis command it caused (SLOWLOG at threshold 0, reset before each query), the total and those over
 * 0.3 ms. It changes the server's slow-log settings while it runs and puts them back after.
 */
import http from 'node:http'
import { Redis } from 'ioredis'
import { LIVE_KINDS } from './liveQueries.ts'
import { seeded as randomOf } from './liveCatalogue.ts'
import { send } from './load.ts'

const redis = new Redis(Number(process.env.PROBE_REDIS ?? 7791))
const base = new URL(process.env.PROBE_URL ?? 'http://127.0.0.1:7792')
const agent = new http.Agent({ keepAlive: true })
const rnd = randomOf(Number(process.env.PROBE_SEED ?? 7))
const [, slower] = (await redis.config('GET', 'slowlog-log-slower-than')) as string[]
const [, maxLen] = (await redis.config('GET', 'slowlog-max-len')) as string[]
await redis.config('SET', 'slowlog-log-slower-than', '0')
await redis.config('SET', 'slowlog-max-len', '10000')
const kinds = LIVE_KINDS.filter((k) => new RegExp(process.env.PROBE_KINDS ?? '.').test(k.kind))
for (const kind of kinds) {
  for (let i = 0; i < Number(process.env.PROBE_N ?? 3); i++) {
    const req = kind.draw(rnd, 100_000)
    await redis.slowlog('RESET')
    const t0 = performance.now()
    const res = await send(base, agent, req)
    const ms = performance.now() - t0
    const log = (await redis.slowlog('GET', 10000)) as [number, number, number, string[]][]
    const mine = log.filter((e) => !String(e[3][0]).toLowerCase().startsWith('slowlog'))
    const total = mine.reduce((n, e) => n + e[2], 0)
    const big = mine.filter((e) => e[2] > Number(process.env.PROBE_MIN_US ?? 300)).reverse().map((e) => `${(e[2] / 1000).toFixed(1)}ms ${e[3].slice(0, 3).join(' ').slice(0, 90)}`)
    console.log(`${kind.kind} | ${res.status} ${ms.toFixed(1)} ms | redis ${(total / 1000).toFixed(1)} ms in ${mine.length} cmds | ${req.body?.slice(0, 120)}`)
    for (const b of big) console.log('    ', b)
  }
}
await redis.config('SET', 'slowlog-log-slower-than', slower!)
await redis.config('SET', 'slowlog-max-len', maxLen!)
redis.disconnect(); agent.destroy()
