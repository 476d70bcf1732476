/**
 * `npm start` (ops/main.ts) as a user meets it, run as a real process on a temporary data folder and free ports:
 * the banner shows where the embedded Redis is (its port, and the unix socket the service's processes use); the CLI
 * finds that Redis by itself; a second start on the same
 * folder, or on a taken port, refuses in one line before launching anything; a failure after the embedded Redis
 * started stops it; Ctrl-C says it stopped and that the data is kept. No redis-server is ever left behind.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { getPriority, setPriority, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { freePort } from '../../ops/embeddedRedis.ts'
import { INSTANCE_FILE, readInstance, redisServersIn } from '../../ops/instance.ts'
import { spawnService, type ChildService } from '../helpers/processes.ts'
import { otherClients } from '../helpers/store.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

interface Ctx { dataDir: string; env: Record<string, string>; first: ChildService }
const t = suite<Ctx>('ops: npm start')

/** The environment of a start on `dataDir` with ports of its own (REDIS_URL unset: the embedded Redis). */
async function startEnv(dataDir: string): Promise<Record<string, string>> {
  return {
    REDIS_URL: '', DATA_DIR: dataDir, PORT: String(await freePort()), DASHBOARD_PORT: String(await freePort()),
    EMBEDDED_REDIS_PORT: String(await freePort()), LOG_LEVEL: 'warn', PARTITIONS: '2', APPENDFSYNC: 'everysec', ADMIN_TOKEN: '',
  }
}

/** Runs a start that must refuse; answers its exit code and what it printed. */
async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawnService('ops/main.ts', env)
  const code = await new Promise<number | null>((resolve) => child.process.once('exit', (c) => resolve(c)))
  const out = child.output()
  return { code, stderr: out }
}

/** The embedded Redis's unix socket, as the banner names it. */
const bannerSocket = (out: string) => /redis socket: +(\/\S+\/redis\.sock) /.exec(out)?.[1]

const isOneLineRefusal = (out: string) => out.trim().split('\n').length === 1 && /^error: /.test(out.trim()) && !/\n\s+at /.test(out)

t.before(async (ctx) => {
  ctx.dataDir = mkdtempSync(join(tmpdir(), 'svc-start-'))
  ctx.env = await startEnv(ctx.dataDir)
  ctx.first = spawnService('ops/main.ts', ctx.env)
  await ctx.first.waitFor(/stop with Ctrl-C/, 30_000)
})
t.after(async (ctx) => {
  await ctx.first.kill('SIGKILL')
  for (const pid of redisServersIn(ctx.dataDir)) process.kill(pid, 'SIGKILL')
})

t('the banner shows the API, the embedded Redis and the data folder', ({ first, env, dataDir }) => {
  const out = first.output()
  assert.match(out, `listening on http://127.0.0.1:${env.PORT}`)
  assert.match(out, `redis:            redis://127.0.0.1:${env.EMBEDDED_REDIS_PORT}`)
  assert.match(out, `redis-cli -p ${env.EMBEDDED_REDIS_PORT}`)
  assert.match(out, `data folder:      ${dataDir}`)
  assert.match(out, /admin token for this run \(set ADMIN_TOKEN to keep one\): svc_/)
  const socket = bannerSocket(out)
  assert.ok(socket && existsSync(socket), out)
  assert.is(readInstance(dataDir)?.redisUrl, socket)
  assert.equal(redisServersIn(dataDir).length, 1)
})

t('the service reaches its embedded Redis through its unix socket, not TCP', async ({ env }) => {
  const clients = await otherClients(Number(env.EMBEDDED_REDIS_PORT))
  assert.ok(clients.length >= 4, `the gateway's, the workers' and the dashboard's connections: ${clients.length}`)
  for (const c of clients) assert.match(c, /^id=\d+ addr=\/\S+redis\.sock:0 .* flags=\S*U/, c)
})

t('the embedded Redis keeps an append-only file, fsynced as APPENDFSYNC says, rewritten at 400% growth', async ({ env }) => {
  const redis = new Redis(Number(env.EMBEDDED_REDIS_PORT))
  try {
    const setting = async (name: string) => ((await redis.config('GET', name)) as string[])[1]
    assert.is(await setting('appendonly'), 'yes')
    assert.is(await setting('appendfsync'), 'everysec')
    assert.is(await setting('auto-aof-rewrite-percentage'), '400')
  } finally {
    redis.disconnect()
  }
})

t('the embedded Redis runs at EMBEDDED_REDIS_NICE (-10) where the OS lets the service raise it (root here), else as the service', ({ dataDir }) => {
  const [pid] = redisServersIn(dataDir)
  // Whether this process may raise a priority: try it on itself, then put it back.
  const own = getPriority()
  let permitted = true
  try {
    setPriority(own - 1)
    setPriority(own)
  } catch {
    permitted = false
  }
  assert.is(getPriority(pid!), permitted ? -10 : own)
})

t('the CLI finds the running embedded Redis of its data folder without REDIS_URL', ({ dataDir }) => {
  const run = spawnSync(process.execPath, ['ops/cli/main.ts', 'queues'], { cwd: ROOT, env: { ...process.env, REDIS_URL: '', DATA_DIR: dataDir, PARTITIONS: '2' }, encoding: 'utf8' })
  assert.is(run.status, 0, run.stderr)
  assert.match(run.stdout, /ingest-0/)
  assert.match(run.stdout, /ingest-1/)
  const none = spawnSync(process.execPath, ['ops/cli/main.ts', 'queues'], { cwd: ROOT, env: { ...process.env, REDIS_URL: '', DATA_DIR: join(dataDir, 'nothing-here') }, encoding: 'utf8' })
  assert.is(none.status, 1)
  assert.match(none.stderr, /REDIS_URL is not set and no npm start runs on the data folder/)
})

t('a second start on the same data folder refuses in one line and launches nothing', async ({ dataDir }) => {
  const second = await refusedStart(await startEnv(dataDir))
  assert.is(second.code, 1)
  assert.ok(isOneLineRefusal(second.stderr), second.stderr)
  assert.match(second.stderr, `the data folder ${dataDir} is in use by another npm start`)
  assert.equal(redisServersIn(dataDir).length, 1, 'still one redis-server on the folder')
})

t('a start whose port is taken refuses in one line and launches nothing', async ({ env }) => {
  const other = mkdtempSync(join(tmpdir(), 'svc-start-'))
  const second = await refusedStart({ ...(await startEnv(other)), PORT: env.PORT! })
  assert.is(second.code, 1)
  assert.ok(isOneLineRefusal(second.stderr), second.stderr)
  assert.match(second.stderr, `port ${env.PORT} on 127.0.0.1 (PORT) is already in use`)
  assert.equal(redisServersIn(other), [])
  assert.not.ok(existsSync(join(other, INSTANCE_FILE)))
})

t('a redis-server left on the data folder (its npm start killed) is named, not joined', async () => {
  const orphanDir = mkdtempSync(join(tmpdir(), 'svc-start-'))
  const env = await startEnv(orphanDir)
  const killed = spawnService('ops/main.ts', env)
  await killed.waitFor(/stop with Ctrl-C/, 30_000)
  await killed.kill('SIGKILL') // no chance to stop its redis-server
  const [orphan] = redisServersIn(orphanDir)
  assert.ok(orphan, 'the killed start left its redis-server')
  try {
    const again = await refusedStart(await startEnv(orphanDir))
    assert.is(again.code, 1)
    assert.ok(isOneLineRefusal(again.stderr), again.stderr)
    assert.match(again.stderr, `a redis-server (pid ${orphan}) still runs on the data folder ${orphanDir}`)
    assert.match(again.stderr, `kill ${orphan}`)
  } finally {
    process.kill(orphan!, 'SIGKILL')
  }
})

t('a failure after the embedded Redis started stops it (no process left behind)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-start-'))
  const registry = join(dir, 'broken-registry.json')
  writeFileSync(registry, '{"entities": 1}')
  const failed = await refusedStart({ ...(await startEnv(dir)), REGISTRY_FILE: registry })
  assert.is(failed.code, 1)
  assert.match(failed.stderr, /^error: cannot start the service: /m)
  assert.not.match(failed.stderr, /\n\s+at /)
  assert.equal(redisServersIn(dir), [])
  assert.not.ok(existsSync(join(dir, INSTANCE_FILE)))
})

t('Ctrl-C stops everything, says so, and keeps the data', async ({ first, dataDir }) => {
  const exited = new Promise<number | null>((resolve) => first.process.once('exit', (c) => resolve(c)))
  first.process.kill('SIGINT')
  assert.is(await exited, 0)
  assert.match(first.output(), `stopped (SIGINT); the data is kept in ${dataDir}`)
  assert.equal(redisServersIn(dataDir), [])
  assert.not.ok(existsSync(join(dataDir, INSTANCE_FILE)))
  assert.ok(existsSync(join(dataDir, 'appendonlydir')), 'the append-only file stays')
  assert.not.ok(existsSync(dirname(bannerSocket(first.output())!)), 'the socket\'s folder is removed')
})

t.run()
