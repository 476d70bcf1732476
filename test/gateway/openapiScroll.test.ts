/**
 * Scroll (GET /openapi/v3/entity/{entityName}, POST /openapi/v3/entity/scroll): every match reached with no result
 * window, each entity once even while writes go on, on the native engine and (when available) redisearch.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { searchEngines, startService, type TestService } from '../helpers/service.ts'

const V3 = '/openapi/v3/entity'
const SCALE = Number(process.env.SCROLL_TEST_DATASETS ?? 3000)
const ds = (name: string) => `urn:svc:dataset:(urn:svc:dataPlatform:hive,${name},PROD)`
const name = (i: number) => `t${String(i).padStart(6, '0')}`

async function write(svc: TestService, entities: unknown[]): Promise<void> {
  for (let i = 0; i < entities.length; i += 500) {
    const res = await svc.call('POST', `${V3}/dataset?async=false`, entities.slice(i, i + 500))
    assert.is(res.status, 200, JSON.stringify(res.body))
  }
}

async function scrollAll(svc: TestService, path: (scrollId?: string) => string, method = 'GET', body?: unknown, between?: () => Promise<void>): Promise<string[]> {
  const seen: string[] = []
  let scrollId: string | undefined
  for (let pages = 0; pages < 100_000; pages++) {
    const res = await svc.call(method, path(scrollId), body)
    assert.is(res.status, 200, JSON.stringify(res.body))
    seen.push(...res.body.entities.map((e: { urn: string }) => e.urn))
    scrollId = res.body.scrollId
    if (!scrollId) return seen
    await between?.()
  }
  throw new Error('the scroll never ended')
}

for (const engine of searchEngines('openapi v3 scroll')) {
  const t = suite<{ svc: TestService }>(`openapi v3 scroll [${engine.name}]`)
  t.before(async (ctx) => {
    ctx.svc = await startService(engine.overrides)
    await write(ctx.svc, Array.from({ length: SCALE }, (_, i) => ({
      urn: ds(name(i)),
      datasetProperties: { value: { name: name(i), description: i % 97 === 0 ? 'special table' : 'plain table' } },
    })))
  })
  t.after(async (ctx) => { await ctx.svc.close() })

  t(`a full scroll of ${SCALE} datasets, with writes going on, answers each exactly once`, async ({ svc }) => {
    let round = 0
    const added: string[] = []
    // Between pages: new datasets (before and after the cursor), updates of existing ones, deletes of new ones.
    const between = async () => {
      round++
      const fresh = [ds(`a${round}`), ds(`t${String(round * 37 % SCALE).padStart(6, '0')}x`), ds(`z${round}`)]
      added.push(...fresh)
      await write(svc, [
        ...fresh.map((urn) => ({ urn, status: { value: { removed: false } } })),
        { urn: ds(name(round * 13 % SCALE)), datasetProperties: { value: { name: 'renamed', description: `updated ${round}` } } },
      ])
      if (round > 2) assert.is((await svc.call('DELETE', `${V3}/dataset/${encodeURIComponent(added[(round - 2) * 3]!)}`)).status, 200)
    }
    const seen = await scrollAll(svc, (scrollId) => `${V3}/dataset?count=250&aspects=datasetProperties${scrollId ? `&scrollId=${scrollId}` : ''}`, 'GET', undefined, between)
    assert.is(new Set(seen).size, seen.length, 'no entity answered twice')
    const originals = new Set(seen.filter((u) => /,t\d{6},PROD\)$/.test(u)))
    assert.is(originals.size, SCALE, 'every dataset present throughout was answered')
    assert.ok(round > SCALE / 250 - 2)
  })

  t('a query scroll reaches every match, in either order; the page size is kept', async ({ svc }) => {
    const expected = Array.from({ length: SCALE }, (_, i) => i).filter((i) => i % 97 === 0).map((i) => ds(name(i)))
    const up = await scrollAll(svc, (scrollId) => `${V3}/dataset?query=special&count=7${scrollId ? `&scrollId=${scrollId}` : ''}`)
    assert.equal(up, expected.filter((u) => up.includes(u)))
    assert.ok(up.length >= expected.length - 3, `${up.length} of ${expected.length}`)
    const down = await scrollAll(svc, (scrollId) => `${V3}/dataset?query=special&count=7&sortOrder=DESCENDING${scrollId ? `&scrollId=${scrollId}` : ''}`)
    assert.equal(down, [...up].reverse())
    const page = await svc.call('GET', `${V3}/dataset?count=3&systemMetadata=true`)
    assert.is(page.body.entities.length, 3)
    assert.ok(page.body.scrollId)
    assert.ok(page.body.entities[0].datasetKey.systemMetadata)
  })

  t('POST /scroll over several types, and what it refuses', async ({ svc }) => {
    await svc.call('POST', `${V3}/tag?async=false`, [{ urn: 'urn:svc:tag:scrolled', tagProperties: { value: { name: 'scrolled' } } }])
    const tags = await scrollAll(svc, (scrollId) => `${V3}/scroll?count=50${scrollId ? `&scrollId=${scrollId}` : ''}`, 'POST', { entities: ['tag'], aspects: ['tagProperties'] })
    assert.equal(tags, ['urn:svc:tag:scrolled'])
    const mixed = await svc.call('POST', `${V3}/scroll?count=2&query=scrolled`, { entities: ['tag', 'dataset'] })
    assert.equal(mixed.body.entities.map((e: { urn: string }) => e.urn), ['urn:svc:tag:scrolled'])
    const first = await svc.call('GET', `${V3}/dataset?count=2`)
    const other = await svc.call('GET', `${V3}/dataset?count=2&query=special&scrollId=${first.body.scrollId}`)
    assert.is(other.status, 400)
    assert.match(other.body.message, /scrollId/)
    assert.is((await svc.call('GET', `${V3}/dataset?scrollId=garbage`)).status, 400)
    assert.is((await svc.call('GET', `${V3}/dataset?sortCriteria=name`)).status, 400)
    assert.is((await svc.call('GET', `${V3}/dataset?count=100001`)).status, 400)
    assert.is((await svc.call('POST', `${V3}/scroll`, { entities: ['nosuchtype'] })).status, 400)
  })

  t.run()
}
