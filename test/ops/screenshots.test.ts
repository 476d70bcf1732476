/**
 * Tests leave the tree as they found it: browser tests keep their screenshots in a temporary folder, and the
 * README's pictures (ops/docs/screenshots/) are written only by `npm run screenshots` (ops/docs/screenshots.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { screenshotPath } from '../helpers/browser.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const t = suite('screenshots')

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? (name === 'fixtures' ? [] : filesUnder(path)) : [path]
  })
}

t('a test\'s screenshot goes to a temporary folder', () => {
  assert.ok(screenshotPath('docs.png', {}).startsWith(tmpdir()), screenshotPath('docs.png', {}))
  assert.not.ok(screenshotPath('docs.png', {}).startsWith(ROOT))
})

t('no test or test helper names the README\'s screenshot folder', () => {
  const naming = filesUnder(join(ROOT, 'test')).filter((f) => f !== fileURLToPath(import.meta.url) && readFileSync(f, 'utf8').includes('docs/screenshots'))
  assert.equal(naming.map((f) => relative(ROOT, f)), [])
})

t('npm run screenshots refreshes the README\'s pictures', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  assert.match(manifest.scripts.screenshots, /^node ops\/docs\/screenshots\.ts( |$)/)
  const script = readFileSync(join(ROOT, 'ops/docs/screenshots.ts'), 'utf8')
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  for (const picture of ['docs.png', 'dashboard.png']) {
    assert.ok(readme.includes(`ops/docs/screenshots/${picture}`), `the README shows ${picture}`)
    assert.ok(script.includes(picture), `the script writes ${picture}`)
  }
})

t.run()
