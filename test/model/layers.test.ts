/**
 * The layers the README's Layout section promises: imports (type-only ones too) go from a higher layer to a lower
 * one, never back. Inside model/: the pure root with derive/, patch/ and aspects/, then store/ and search/ (Redis),
 * then services/; model/ imports nothing of gateway/, workers/ or ops/; gateway/ and workers/ nothing of ops/ or
 * of each other.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'uvu'
import * as assert from 'uvu/assert'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : []
  })
}

/** The layer of a repository path, higher numbers above; undefined outside the checked folders. */
function layerOf(path: string): { name: string; rank: number } | undefined {
  const rel = relative(ROOT, path).split('\\').join('/')
  if (/^model\/services\//.test(rel)) return { name: 'model/services', rank: 2 }
  if (/^model\/(store|search)\//.test(rel)) return { name: 'model/store+search', rank: 1 }
  if (/^model\//.test(rel)) return { name: 'model (pure)', rank: 0 }
  if (/^(gateway|workers)\//.test(rel)) return { name: rel.split('/')[0]!, rank: 3 }
  if (/^ops\//.test(rel)) return { name: 'ops', rank: 4 }
  return undefined
}

test('no import runs from a lower layer up to a higher one (nor between gateway and workers)', () => {
  const wrong: string[] = []
  for (const file of ['model', 'gateway', 'workers', 'ops'].flatMap((d) => sources(join(ROOT, d)))) {
    const from = layerOf(file)!
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const to = layerOf(resolve(dirname(file), match[1]!))
      if (!to) continue
      const sideways = from.rank === 3 && to.rank === 3 && from.name !== to.name
      if (to.rank > from.rank || sideways) wrong.push(`${relative(ROOT, file)} (${from.name}) imports ${match[1]} (${to.name})`)
    }
  }
  assert.equal(wrong, [])
})

test.run()
