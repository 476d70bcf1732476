/**
 * The ops CLI (ops/cli/): its pure parts, then the real CLI run as a child process against a service under test
 * (same Redis, key prefix and partitions).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { durationMs } from '../../ops/cli/args.ts'
import { batchesOf } from '../../ops/cli/batches.ts'
import { renderProgress, startProgress } from '../../ops/cli/progress.ts'
import { formatSummary, summarize } from '../../ops/cli/summary.ts'
import { entityTypeOf } from '../../ops/cli/records.ts'
import { fixture } from '../helpers/fixtures.ts'
import { deleteKeys as deleteStoredKeys } from '../helpers/store.ts'
import { onCluster, startService, type TestService, redisEnv } from '../helpers/service.ts'
import { freePort } from '../../ops/embeddedRedis.ts'
import { INSTANCE_FILE, redisServersIn } from '../../ops/instance.ts'
import { spawnService, type ChildService } from '../helpers/processes.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const UPSTREAM = 'test/fixtures/upstream/'

const parts = suite('ops cli: pure parts')

parts('batches never split a record and stay within N unless one record alone is bigger', () => {
  const unit = (n: number, source = `r${n}`) => ({ source, proposals: Array.from({ length: n }, (_, i) => i) })
  const sizes = (size: number, ns: number[]) => batchesOf(ns.map((n) => unit(n)), size).map((b) => b.map((u) => u.proposals.length))
  assert.equal(sizes(5, [2, 2, 2, 1, 4]), [[2, 2], [2, 1], [4]])
  assert.equal(sizes(3, [1, 7, 1]), [[1], [7], [1]])
  assert.equal(sizes(1000, []), [])
})

parts('the summary names refused records by entity type, with counts and codes', () => {
  const s = summarize([
    { accepted: true, entityType: 'dataset' }, { accepted: false, code: 'UNKNOWN_ENTITY_TYPE', entityType: 'dataJob' },
    { accepted: false, code: 'UNKNOWN_ENTITY_TYPE', entityType: 'dataJob' }, { accepted: false, code: 'INVALID_ASPECT', entityType: 'dataJob' },
    { accepted: false, code: 'UNCONVERTIBLE_RECORD' }, { accepted: false, code: 'UNKNOWN_ENTITY_TYPE', entityType: 'mlModel' },
  ])
  assert.equal(s.byEntityType, [
    { entityType: 'dataJob', count: 3, codes: ['UNKNOWN_ENTITY_TYPE', 'INVALID_ASPECT'] },
    { entityType: 'mlModel', count: 1, codes: ['UNKNOWN_ENTITY_TYPE'] },
    { entityType: 'unknown', count: 1, codes: ['UNCONVERTIBLE_RECORD'] },
  ])
  assert.match(formatSummary(s), /^rejected by entity type:\n  dataJob: 3 \(UNKNOWN_ENTITY_TYPE, INVALID_ASPECT\)\n  mlModel: 1 \(UNKNOWN_ENTITY_TYPE\)\n  unknown: 1 \(UNCONVERTIBLE_RECORD\)$/m)
  assert.not.match(formatSummary(summarize([{ accepted: true }])), /by entity type/)
})

parts('the entity type of a record: a proposal\'s entityType, else its first urn\'s type', () => {
  assert.is(entityTypeOf({ entityType: 'chart', entityUrn: 'urn:li:dataset:x' }), 'chart')
  assert.is(entityTypeOf({ proposedSnapshot: { 'com.linkedin.pegasus2avro.metadata.snapshot.DataJobSnapshot': { urn: 'urn:li:dataJob:(a,b)', aspects: [] } } }), 'dataJob')
  assert.is(entityTypeOf({ hello: 1 }), undefined)
})

parts('the progress bar draws its final state once when not on a terminal', async () => {
  const { PassThrough } = await import('node:stream')
  const stream = new PassThrough()
  let out = ''
  stream.on('data', (d: Buffer) => { out += d.toString() })
  const progress = startProgress('ingest', 10, stream as unknown as NodeJS.WriteStream)
  progress.tick(10)
  progress.done()
  await new Promise((r) => setImmediate(r))
  assert.is(out.split('\n').filter((l) => l.includes('10/10')).length, 1, out)
})

parts('the summary groups rejections by code with a few distinct examples', () => {
  const s = summarize([
    { accepted: true }, { accepted: false, code: 'A', message: 'a1' }, { accepted: false, code: 'B', message: 'b1' },
    ...['b1', 'b2', 'b3', 'b4'].map((message) => ({ accepted: false, code: 'B', message })),
  ])
  assert.is(s.accepted, 1)
  assert.is(s.rejected, 6)
  assert.equal(s.byCode, [{ code: 'B', count: 5, examples: ['b1', 'b2', 'b3'] }, { code: 'A', count: 1, examples: ['a1'] }])
})

parts('progress shows items done, total and rate; durations parse', () => {
  assert.is(renderProgress('ingest', 50, 100, 2000, 10), 'ingest [#####-----] 50/100 25.0/s')
  assert.is(renderProgress('restore', 0, 0, 0, 4), 'restore [####] 0/0 0.00/s')
  assert.is(durationMs('30d', 'ttl'), 30 * 86_400_000)
  assert.is(durationMs('15m', 'ttl'), 15 * 60_000)
  assert.throws(() => durationMs('30 days', 'ttl'), /30d/)
})

parts.run()

type Result = { code: number; stdout: string; stderr: string }
const t = suite<{ svc: TestService; admin: string }>('ops cli: commands as child processes')
t.before(async (ctx) => { ctx.svc = await startService() })
t.after(async (ctx) => { await ctx.svc.close() })

/** Runs `node ops/cli/main.ts ...args` with the environment of the service under test. */
function cli(svc: TestService, ...args: string[]): Promise<Result> {
  const env = {
    ...process.env, ...redisEnv(svc.config),
    SEARCH_ENGINE: svc.config.searchEngine, SVC_URL: svc.url, SVC_TOKEN: '', LOG_LEVEL: 'silent',
  }
  const child = spawn(process.execPath, ['ops/cli/main.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })))
}
const show = (r: Result) => `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`

const hive = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,SampleHiveDataset,PROD)'
const search = async (svc: TestService, input: string) =>
  (await svc.call('POST', '/entities?action=search', { input, entity: 'dataset', start: 0, count: 100 })).body.value as { numEntities: number; entities: string[] }
const deleteKeys = (svc: TestService, pattern: string) => deleteStoredKeys(svc.gateway.model.redis, svc.config.keyPrefix, pattern)

t('bad command lines exit 2 with a usage line', async ({ svc }) => {
  for (const args of [[], ['nope'], ['ingest'], ['ingest', '--batch', 'x', 'f.json'], ['restore', '--bogus'], ['token', 'create', '--subject', 's', '--scope', 'root'],
    ['delete', 'urn:svc:nope:x'], ['rollback'], ['restore', '--rebuild', '--urn', hive]]) {
    const r = await cli(svc, ...args)
    assert.is(r.code, 2, `${args.join(' ')}: ${show(r)}`)
    assert.match(r.stderr, /usage: npm run svc -- /, args.join(' '))
  }
})

t('ingest of raw Avro-JSON: every item of the demo catalogue accepted, beyond-spec entity types too', async ({ svc }) => {
  const twins = fixture('bootstrap_mce.requests.json')
  const items = (r: (typeof twins)[number]) => {
    const body = r.body as any
    return body.proposal ? 1 : (Object.values(body.entity.value)[0] as { aspects: unknown[] }).aspects.length
  }
  const accepted = twins.reduce((n, r) => n + items(r), 0)

  const r = await cli(svc, 'ingest', `${UPSTREAM}bootstrap_mce.json`, '--batch', '50')
  assert.is(r.code, 0, show(r))
  assert.match(r.stdout, new RegExp(`^accepted: ${accepted}$`, 'm'), show(r))
  assert.match(r.stdout, /^rejected: 0$/m, show(r))
  assert.match(r.stderr, new RegExp(`ingest \\[#+\\] ${accepted}/${accepted} `), 'progress on stderr')
  assert.is(r.stderr.split('\n').filter((l) => l.includes(`${accepted}/${accepted}`)).length, 1, `the final bar is drawn once: ${r.stderr}`)

  // Records of an entity type no registry knows are refused and named by entity type, with counts.
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'))
  const unknown = join(dir, 'unknown-type.json')
  const proposal = (urn: string, aspectName: string) => ({ entityType: 'gadget', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { json: { a: 1 } } })
  writeFileSync(unknown, JSON.stringify([proposal('urn:svc:gadget:a', 'gadgetInfo'), proposal('urn:svc:gadget:b', 'gadgetInfo')]))
  const refused = await cli(svc, 'ingest', unknown)
  assert.is(refused.code, 1, show(refused))
  assert.match(refused.stdout, /^rejected: 2$/m, show(refused))
  assert.match(refused.stdout, /^rejected by entity type:$/m)
  assert.match(refused.stdout, /^  gadget: 2 \(UNKNOWN_ENTITY_TYPE\)$/m, show(refused))

  const found = (await search(svc, 'Sample')).entities
  for (const name of ['SampleHiveDataset', 'SampleHdfsDataset', 'SampleKafkaDataset']) assert.ok(found.some((u) => u.includes(`,${name},`)), `${name} in ${found}`)
})

t('ingest of *.requests.json files (snapshots and proposals), in small batches, exits 0', async ({ svc }) => {
  const r = await cli(svc, 'ingest', `${UPSTREAM}single_mce.requests.json`, `${UPSTREAM}demo-profiles.requests.json`, '--batch', '5')
  assert.is(r.code, 0, show(r))
  assert.match(r.stdout, /^accepted: 15$/m)
  assert.match(r.stdout, /^rejected: 0$/m)
  const user = await svc.call('GET', `/entitiesV2/${encodeURIComponent('urn:svc:corpuser:harshal')}`)
  assert.is(user.body.aspects.corpUserInfo.value.displayName, 'Harshal Sheth')
  const profiles = await svc.call('POST', '/aspects?action=getTimeseriesAspectValues',
    { urn: 'urn:svc:dataset:(urn:svc:dataPlatform:hdfs,SampleHdfsDataset,PROD)', entity: 'dataset', aspect: 'datasetProfile' })
  assert.is(profiles.body.value.values.length, 14)
})

t('ingest reports records it cannot convert and requests that are not ingests', async ({ svc }) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'))
  const file = join(dir, 'odd.json')
  writeFileSync(file, JSON.stringify([{ hello: 1 }, { method: 'POST', path: '/entities?action=search', body: {} }]))
  const r = await cli(svc, 'ingest', file)
  assert.is(r.code, 1, show(r))
  assert.match(r.stdout, /^  UNCONVERTIBLE_RECORD: 2$/m)
  const bad = join(dir, 'bad.json')
  writeFileSync(bad, '{not json')
  const b = await cli(svc, 'ingest', bad)
  assert.is(b.code, 1, show(b))
  assert.match(b.stderr, /not valid JSON/)
})

t('token create, list and revoke', async (ctx) => {
  const created = await cli(ctx.svc, 'token', 'create', '--subject', 'ops-admin', '--scope', 'admin', '--ttl', '30d')
  assert.is(created.code, 0, show(created))
  const token = /^token: (\S+)$/m.exec(created.stdout)![1]!
  const id = /^id: (\S+)$/m.exec(created.stdout)![1]!
  ctx.admin = token
  const spare = await cli(ctx.svc, 'token', 'create', '--subject', 'reader', '--scope', 'read')
  const spareId = /^id: (\S+)$/m.exec(spare.stdout)![1]!
  const listed = await cli(ctx.svc, 'token', 'list')
  assert.is(listed.code, 0, show(listed))
  assert.match(listed.stdout, new RegExp(`^${id}\\s+ops-admin\\s+admin\\s+\\S+\\s+\\d{4}-`, 'm'))
  assert.match(listed.stdout, new RegExp(`^${spareId}\\s+reader\\s+read\\s+\\S+\\s+never\\s+never$`, 'm'))
  assert.not.match(listed.stdout, token, 'secrets are never listed')
  const revoked = await cli(ctx.svc, 'token', 'revoke', spareId)
  assert.is(revoked.code, 0, show(revoked))
  assert.not.match((await cli(ctx.svc, 'token', 'list')).stdout, spareId)
  assert.is((await cli(ctx.svc, 'token', 'revoke', spareId)).code, 1)
  assert.ok(await new (await import('../../model/services/tokens.ts')).TokenStore(ctx.svc.gateway.model.redis, ctx.svc.gateway.model.keys).verify(token))
})

t('restore --rebuild after index keys were lost makes search whole again', async ({ svc }) => {
  const before = await search(svc, '*')
  assert.ok(before.numEntities >= 7)
  assert.ok((await deleteKeys(svc, '{*}:ix:*')) > 0)
  assert.ok((await deleteKeys(svc, '{*}:br:*')) > 0)
  assert.is((await search(svc, '*')).numEntities, 0)
  const r = await cli(svc, 'restore', '--rebuild', '--batch-size', '25')
  assert.is(r.code, 0, show(r))
  assert.match(r.stdout, /^deleted \d+ index keys$/m)
  assert.match(r.stdout, /^rows restored: [1-9]\d* .* rows\/s$/m)
  assert.match(r.stderr, /restore \[#+\] \d+\/\d+ /)
  assert.equal(await search(svc, '*'), before)
  assert.is(await svc.gateway.model.redis.exists(`${svc.config.keyPrefix}ops:restore:cursor`), 0, 'the cursor is gone once done')
})

t('restore --resume continues from the saved cursor, with the saved filters', async ({ svc }) => {
  const redis = svc.gateway.model.redis
  const cursor = `${svc.config.keyPrefix}ops:restore:cursor`
  await redis.set(cursor, JSON.stringify({ urnLike: 'urn:svc:dataPlatform:%', start: 50, rebuild: false }))
  const mismatch = await cli(svc, 'restore', '--resume', '--urnLike', 'urn:svc:tag:%')
  assert.is(mismatch.code, 2, show(mismatch))
  const r = await cli(svc, 'restore', '--resume')
  assert.is(r.code, 0, show(r))
  assert.match(r.stderr, /resuming at row 50/)
  assert.match(r.stdout, /^rows restored: 4 /m, '27 platforms x 2 rows, from row 50')
  assert.is(await redis.exists(cursor), 0)
})

t('delete hard-deletes an entity through the API', async ({ svc }) => {
  assert.ok((await search(svc, 'SampleHiveDataset')).entities.includes(hive))
  const r = await cli(svc, 'delete', hive)
  assert.is(r.code, 0, show(r))
  assert.match(r.stdout, /^deleted urn:svc:dataset:/m)
  const read = await svc.call('GET', `/entitiesV2/${encodeURIComponent(hive)}`)
  assert.equal(Object.keys(read.body.aspects), ['datasetKey'])
  assert.not.ok((await search(svc, 'SampleHiveDataset')).entities.includes(hive))
})

t('rollback of a run: needs the admin token; --dry-run lists, then the run goes away', async ({ svc, admin }) => {
  const user = 'urn:svc:corpuser:cli-rollback'
  const res = await svc.call('POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'corpuser', entityUrn: user, changeType: 'UPSERT', aspectName: 'corpUserInfo',
    aspect: { value: JSON.stringify({ active: true, displayName: 'Temp' }), contentType: 'application/json' }, systemMetadata: { runId: 'cli-run' } } })
  assert.is(res.status, 200)
  const denied = await cli(svc, 'rollback', 'cli-run')
  assert.is(denied.code, 1, show(denied))
  assert.match(denied.stderr, /401 UNAUTHORIZED/)
  const dry = await cli(svc, 'rollback', 'cli-run', '--dry-run', '--token', admin)
  assert.is(dry.code, 0, show(dry))
  assert.match(dry.stdout, /would roll back 1 entities/)
  assert.ok(dry.stdout.includes(user))
  const done = await cli(svc, 'rollback', 'cli-run', '--token', admin)
  assert.is(done.code, 0, show(done))
  assert.match(done.stdout, /rolled back: 1 entities, [1-9]\d* aspects reverted/)
  const read = await svc.call('GET', `/entitiesV2/${encodeURIComponent(user)}`)
  assert.equal(Object.keys(read.body.aspects), ['corpUserKey'])
})

t('queues prints the job counts of every partition', async ({ svc }) => {
  const r = await cli(svc, 'queues')
  assert.is(r.code, 0, show(r))
  assert.match(r.stdout, /^PARTITION\s+QUEUE\s+WAITING\s+ACTIVE\s+COMPLETED\s+FAILED\s+DELAYED$/m)
  for (let p = 0; p < svc.config.partitions; p++) assert.match(r.stdout, new RegExp(`^${p}\\s+\\{ingest-${p}\\}\\s+\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s+\\d+$`, 'm'))
  const completed = r.stdout.split('\n').slice(1).filter(Boolean).reduce((n, line) => n + Number(line.split(/\s+/)[4]), 0)
  assert.ok(completed > 0, 'the ingests above went through the queues')
})

t.run()

/**
 * The API commands find the service by themselves, as a user meets them: `npm start` (ops/main.ts) on a temporary
 * data folder and ports other than the defaults, the CLI with DATA_DIR only (no SVC_URL, no REDIS_URL). Once, on
 * the standalone pass (npm start always runs its own embedded Redis).
 */
interface StartCtx { dataDir: string; env: Record<string, string>; start: ChildService }
const started = suite<StartCtx>('ops cli: the API commands find the npm start of DATA_DIR')
const cliOn = (env: Record<string, string>, ...args: string[]): Promise<Result> => {
  const child = spawn(process.execPath, ['ops/cli/main.ts', ...args], {
    cwd: ROOT, env: { ...process.env, SVC_URL: '', SVC_TOKEN: '', REDIS_URL: '', REDIS_CLUSTER: '', LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })))
}
const ADMIN = 'cli-test-admin-secret'
const oneLine = (r: Result) => r.stderr.trim().split('\n').length === 1 && r.stdout === ''

started.before(async (ctx) => {
  if (onCluster()) return
  ctx.dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-start-'))
  const port = await freePort()
  assert.is.not(port, 8080)
  ctx.env = {
    REDIS_URL: '', REDIS_CLUSTER: '', DATA_DIR: ctx.dataDir, PORT: String(port), DASHBOARD_PORT: String(await freePort()),
    EMBEDDED_REDIS_PORT: String(await freePort()), LOG_LEVEL: 'warn', PARTITIONS: '2', APPENDFSYNC: 'everysec', ADMIN_TOKEN: ADMIN, AUTH_ENABLED: 'false',
  }
  ctx.start = spawnService('ops/main.ts', ctx.env)
  await ctx.start.waitFor(/stop with Ctrl-C/, 60_000)
})
started.after(async (ctx) => {
  if (onCluster()) return
  await ctx.start.kill('SIGKILL')
  for (const pid of redisServersIn(ctx.dataDir)) process.kill(pid, 'SIGKILL')
})

started('ingest, delete and rollback reach the npm start of DATA_DIR on its own port', async ({ dataDir }) => {
  if (onCluster()) return
  const env = { DATA_DIR: dataDir, PARTITIONS: '2' }
  const r = await cliOn(env, 'ingest', `${UPSTREAM}single_mce.requests.json`)
  assert.is(r.code, 0, show(r))
  assert.match(r.stdout, /^rejected: 0$/m, show(r))
  const d = await cliOn(env, 'delete', 'urn:svc:dataset:(urn:svc:dataPlatform:hive,NotThere,PROD)')
  assert.is(d.code, 0, show(d))
  const rb = await cliOn({ ...env, SVC_TOKEN: ADMIN }, 'rollback', 'no-such-run', '--dry-run')
  assert.is(rb.code, 0, show(rb))
  assert.match(rb.stdout, /would roll back 0 entities/)
})

started('with no npm start on DATA_DIR (and no SVC_URL), each API command says so in one line', async ({ dataDir }) => {
  if (onCluster()) return
  const env = { DATA_DIR: join(dataDir, 'nothing-here') }
  for (const args of [['ingest', `${UPSTREAM}bootstrap_mce.json`], ['delete', hive], ['rollback', 'r1']]) {
    const r = await cliOn(env, ...args)
    assert.is(r.code, 1, `${args[0]}: ${show(r)}`)
    assert.ok(oneLine(r), `${args[0]}: ${show(r)}`)
    assert.match(r.stderr, /^error: SVC_URL is not set and no npm start runs on the data folder .*nothing-here: start the service \(npm start\), or set SVC_URL/)
  }
})

started('a service that cannot be reached ends an ingest with one line, not a rejection per proposal', async () => {
  if (onCluster()) return
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-gone-'))
  const url = `http://127.0.0.1:${await freePort()}`
  writeFileSync(join(dir, INSTANCE_FILE), JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), apiUrl: url }))
  const r = await cliOn({ DATA_DIR: dir }, 'ingest', `${UPSTREAM}bootstrap_mce.json`)
  assert.is(r.code, 1, show(r))
  assert.not.match(r.stdout, /UNREACHABLE|rejected/, show(r))
  assert.match(r.stderr, new RegExp(`^error: cannot reach ${url}: `, 'm'), show(r))
  assert.is(r.stderr.split('\n').filter((l) => l.startsWith('error')).length, 1, show(r))
})

started.run()

