/**
 * `svc migrate` on a store written by the version before shards: test/fixtures/layout-v1/dump.rdb was filled by
 * that version's own service (the demo catalogue, the demo profiles, three versions of one aspect in three runs, a
 * lineage edge, an access token; KEY_PREFIX svc:, 4 partitions). After the migration (into 4 shards) the new
 * service reads, searches, walks and rolls back exactly what the old one held, and no old key is left.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { freePort, type EmbeddedRedis } from '../../ops/embeddedRedis.ts'
import { startService, tokenFor, type TestService } from '../helpers/service.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const FIXTURE = fileURLToPath(new URL('../fixtures/layout-v1/dump.rdb', import.meta.url))
const PREFIX = 'svc:'
const hdfs = 'urn:svc:dataset:(urn:svc:dataPlatform:hdfs,SampleHdfsDataset,PROD)'
const v1 = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,fixture.v1,PROD)'

interface Ctx { dir: string; server: { port: number; url: string; stop(): Promise<void> }; redis: Redis; svc?: TestService }
const t = suite<Ctx>('migrate: the layout before shards to the sharded one')

/** redis-server loading the fixture's RDB file (a copy, in a temporary folder). */
async function serverWithFixture(dir: string): Promise<Ctx['server']> {
  copyFileSync(FIXTURE, join(dir, 'dump.rdb'))
  const port = await freePort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--dbfilename', 'dump.rdb', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const url = `redis://127.0.0.1:${port}`
  for (let i = 0; i < 100; i++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
    probe.on('error', () => {})
    const up = await probe.connect().then(() => probe.ping()).then(() => true, () => false)
    probe.disconnect()
    if (up) break
    await new Promise((r) => setTimeout(r, 50))
  }
  return { port, url, stop: async () => { child.kill('SIGTERM'); await new Promise((r) => child.once('exit', r)) } } satisfies Pick<EmbeddedRedis, 'port' | 'url' | 'stop'>
}

function cli(url: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, REDIS_URL: url, REDIS_CLUSTER: '', KEY_PREFIX: PREFIX, SHARDS: '4', PARTITIONS: '4', SEARCH_ENGINE: 'native', LOG_LEVEL: 'silent' }
  const child = spawn(process.execPath, ['ops/cli/main.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  return new Promise((r) => child.once('exit', (code) => r({ code: code ?? 1, stdout, stderr })))
}

t.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'))
  ctx.server = await serverWithFixture(ctx.dir)
  ctx.redis = new Redis(ctx.server.url)
})
t.after(async (ctx) => {
  await ctx.svc?.close()
  ctx.redis.disconnect()
  await ctx.server.stop()
  rmSync(ctx.dir, { recursive: true, force: true })
})

t('the new service refuses the old store until it is migrated', async (ctx) => {
  assert.is(await ctx.redis.exists(`${PREFIX}rows`), 1, 'the fixture holds the old layout')
  try {
    await startService({ redisUrl: ctx.server.url, redisCluster: [], shards: 4, keyPrefix: PREFIX })
    assert.unreachable('refused')
  } catch (err) {
    assert.match((err as Error).message, 'npm run svc -- migrate')
  }
})

t('migrate moves everything into shards, rebuilds the indexes and removes the old keys', async (ctx) => {
  const tokensBefore = await ctx.redis.hlen(`${PREFIX}tokens`)
  const oldLog = await ctx.redis.xlen(`${PREFIX}mcl`)
  const r = await cli(ctx.server.url, 'migrate')
  assert.is(r.code, 0, r.stderr + r.stdout)
  assert.match(r.stdout, /^copied \d+ keys of \d+ entities into 4 shard\(s\); \d+ rows, 3 runs, \d+ change-log entries$/m)
  assert.match(r.stdout, /^indexes rebuilt from [1-9]\d* rows$/m)
  assert.match(r.stdout, /^removed \d+ keys of the earlier layout/m)
  const left: string[] = []
  for await (const batch of ctx.redis.scanStream({ match: `${PREFIX}*`, count: 1000 }) as AsyncIterable<string[]>) {
    left.push(...batch.filter((k) => !/^svc:\{s[\d.]+\}:/.test(k) && !/^svc:q:\{ingest-\d+\}:/.test(k) && k !== `${PREFIX}layout` && k !== `${PREFIX}tokens`))
  }
  assert.equal(left, [], 'no key of the old layout is left')
  assert.is(await ctx.redis.hlen(`${PREFIX}tokens`), tokensBefore, 'tokens are kept')
  const logged = await cli(ctx.server.url, 'log', '--count', '100000')
  const entries = logged.stdout.trim().split('\n').map((l) => JSON.parse(l) as { changeType: string; entityUrn: string })
  assert.is(entries.filter((e) => e.changeType !== 'RESTATE').length, oldLog, 'every change-log entry moved, in its shard')
  assert.equal((await cli(ctx.server.url, 'migrate')).stdout.trim(), `nothing to migrate: the store under KEY_PREFIX "${PREFIX}" holds no data of the earlier layout`)
})

t('the migrated store answers as the old one did: reads, versions, search, lineage, timeseries, rollback', async (ctx) => {
  ctx.svc = await startService({ redisUrl: ctx.server.url, redisCluster: [], shards: 4, keyPrefix: PREFIX, partitions: 4 })
  const svc = ctx.svc
  const entity = await svc.call('GET', `/entitiesV2/${encodeURIComponent(hdfs)}`)
  assert.is(entity.status, 200)
  for (const aspect of ['datasetKey', 'schemaMetadata', 'ownership', 'browsePaths']) assert.ok(entity.body.aspects[aspect], aspect)
  const version = async (v: number) => (await svc.call('GET', `/aspects/${encodeURIComponent(v1)}?aspect=datasetProperties&version=${v}`)).body?.aspect?.['com.svc.dataset.DatasetProperties']?.description
  assert.equal([await version(0), await version(1), await version(2)], ['version three', 'version one', 'version two'])
  const found = await svc.call('POST', '/entities?action=search', { input: 'SampleHdfsDataset', entity: 'dataset', start: 0, count: 10 })
  assert.ok(found.body.value.entities.includes(hdfs))
  const all = await svc.call('POST', '/entities?action=search', { input: '*', entity: 'dataset', start: 0, count: 100 })
  assert.ok(all.body.value.numEntities >= 8, `${all.body.value.numEntities} datasets`)
  const downstream = await svc.call('GET', `/relationships?direction=INCOMING&urn=${encodeURIComponent(hdfs)}&types=DownstreamOf`)
  assert.ok(downstream.body.entities.includes(v1))
  const profiles = await svc.call('POST', '/aspects?action=getTimeseriesAspectValues', { urn: hdfs, entity: 'dataset', aspect: 'datasetProfile' })
  assert.ok(profiles.body.value.values.length > 0, 'the demo profiles are there')
  const admin = await tokenFor(svc, 'admin')
  const rolled = await svc.call('POST', '/operations?action=rollback', { runId: 'run-three' }, { authorization: `Bearer ${admin}` })
  assert.is(rolled.status, 200)
  assert.is(await version(0), 'version two')
  const browse = await svc.call('POST', '/entities?action=browse', { path: '/prod/hdfs', entity: 'dataset', start: 0, limit: 10 })
  assert.ok((browse.body.value.entities as { urn: string }[]).some((e) => e.urn === hdfs))
})

t.run()
