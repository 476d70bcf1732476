/**
 * `svc restore` on each search engine, plain (every entity restated over its standing index) and `--rebuild` (every
 * index key deleted, in one SCAN for every pattern, then rebuilt from the rows by the workers), in batches smaller
 * than the catalogue, so that an entity's rows may fall in two batches and be restated twice: the demo catalogue's
 * searches answer as before, facets (counted or kept) and filters included.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fixture } from '../helpers/fixtures.ts'
import { redisEnv, searchEngines, startService, type TestService } from '../helpers/service.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const engines = searchEngines('svc restore')

function restore(svc: TestService, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, ...redisEnv(svc.config), SEARCH_ENGINE: svc.config.searchEngine, LOG_LEVEL: 'silent' }
  const child = spawn(process.execPath, ['ops/cli/main.ts', 'restore', '--batch-size', '40', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })))
}

/** What the catalogue's searches answer: everything, a word, a facet value alone, a filter; each with its facets. */
async function answers(svc: TestService): Promise<unknown[]> {
  const asks = [
    { input: '*' }, { input: 'sample' }, { input: 'platform:hive' },
    { input: '*', filter: { or: [{ and: [{ field: 'platform', values: ['urn:svc:dataPlatform:kafka'], condition: 'EQUAL' }] }] } },
  ]
  return Promise.all(asks.map(async (ask) => (await svc.call('POST', '/entities?action=search', { entity: 'dataset', start: 0, count: 100, ...ask })).body.value))
}

for (const { name, overrides } of engines) {
  const t = suite<{ svc: TestService }>(`svc restore [${name}]`)
  t.before(async (ctx) => {
    ctx.svc = await startService(overrides)
    for (const r of fixture('bootstrap_mce.requests.json')) await ctx.svc.call(r.method, r.path, r.body)
  })
  t.after(async (ctx) => { await ctx.svc.close() })

  t('restating every entity over its standing index changes no answer (no count moves twice)', async ({ svc }) => {
    const before = await answers(svc)
    assert.ok((before[0] as { numEntities: number }).numEntities >= 7)
    for (let run = 0; run < 2; run++) {
      const r = await restore(svc)
      assert.is(r.code, 0, `${r.stdout}\n${r.stderr}`)
      assert.equal(await answers(svc), before, `after restore ${run + 1}`)
    }
  })

  t('every index is deleted and rebuilt: the same answers, facets and filters included', async ({ svc }) => {
    const before = await answers(svc)
    const r = await restore(svc, '--rebuild')
    assert.is(r.code, 0, `${r.stdout}\n${r.stderr}`)
    const deleted = Number(/^deleted (\d+) index keys$/m.exec(r.stdout)?.[1])
    assert.ok(deleted > 0, r.stdout)
    assert.match(r.stdout, /^swept 0 orphaned entities$/m)
    assert.equal(await answers(svc), before)
  })

  t.run()
}
