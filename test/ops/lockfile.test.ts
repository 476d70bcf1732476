/**
 * package-lock.json is complete enough for `npm ci`: every dependency a locked package declares, optional ones
 * included, has an entry where Node's resolution finds it, whatever platform it is for. npm 11 refuses `npm ci`
 * ("Missing: @msgpackr-extract/msgpackr-extract-darwin-x64@3.0.7 from lock file") when the lock lacks another
 * platform's optional package, even though it would never install it here; `npm install` silently drops such
 * entries when the registry cannot serve that exact version. The README's "Dependencies" section says how to
 * regenerate the lock so that this test passes.
 */
import { readFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

interface LockEntry {
  version?: string
  link?: boolean
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}
interface Lock { lockfileVersion: number; packages: Record<string, LockEntry> }

const root = new URL('../../', import.meta.url)
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as Lock
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; overrides?: Record<string, string> }

/** Where Node (and npm) looks for `name` from the package at `from`: its own node_modules, then each ancestor's. */
export function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let dir = from
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`
    if (packages[candidate]) return candidate
    if (dir === '') return undefined
    const at = dir.lastIndexOf('/node_modules/')
    dir = at < 0 ? '' : dir.slice(0, at)
  }
}

/** A spec naming one exact version (`3.0.7`): the locked entry must be that version. */
const EXACT = /^\d+\.\d+\.\d+(?:-[\w.]+)?$/

/** What `npm ci` would call missing or mismatched: `<from> -> <name>@<spec>: why`. */
export function missingFromLock(packages: Record<string, LockEntry>): string[] {
  const problems: string[] = []
  for (const [from, entry] of Object.entries(packages)) {
    if (entry.link) continue
    const wanted = { ...entry.dependencies, ...entry.optionalDependencies }
    for (const [name, spec] of Object.entries(wanted)) {
      const at = resolveIn(packages, from, name)
      if (!at) problems.push(`${from || '(root)'} -> ${name}@${spec}: no entry`)
      else if (EXACT.test(spec) && packages[at]!.version !== spec) problems.push(`${from || '(root)'} -> ${name}@${spec}: locked ${packages[at]!.version} at ${at}`)
    }
  }
  return problems
}

const t = suite('package-lock.json')

t('is a lockfile v3 whose root matches package.json', () => {
  assert.is(lock.lockfileVersion, 3)
  const rootEntry = lock.packages['']!
  assert.equal(rootEntry.dependencies ?? {}, manifest.dependencies ?? {})
  assert.equal((rootEntry as { devDependencies?: Record<string, string> }).devDependencies ?? {}, manifest.devDependencies ?? {})
})

t('every declared dependency, optional platform packages of every platform included, has its entry', () => {
  assert.equal(missingFromLock(lock.packages), [])
})

t('msgpackr-extract has its six platform packages locked (npm ci checks them on every platform)', () => {
  const extract = resolveIn(lock.packages, '', 'msgpackr-extract')
  assert.ok(extract, 'msgpackr-extract is locked')
  const platforms = Object.keys(lock.packages[extract!]!.optionalDependencies ?? {})
  assert.ok(platforms.length >= 6, `platform packages declared: ${platforms.join(', ')}`)
  for (const name of platforms) assert.ok(resolveIn(lock.packages, extract!, name), `${name} is locked`)
})

t('the check itself: a lock lacking one platform package is caught', () => {
  const packages: Record<string, LockEntry> = {
    '': { dependencies: { a: '^1.0.0' } },
    'node_modules/a': { version: '1.0.0', optionalDependencies: { 'a-linux': '1.0.0', 'a-darwin': '1.0.0' } },
    'node_modules/a-linux': { version: '1.0.0' },
    'node_modules/b/node_modules/a-darwin': { version: '1.0.0' },
  }
  assert.equal(missingFromLock(packages), ['node_modules/a -> a-darwin@1.0.0: no entry'])
  packages['node_modules/a-darwin'] = { version: '0.9.0' }
  assert.equal(missingFromLock(packages), ['node_modules/a -> a-darwin@1.0.0: locked 0.9.0 at node_modules/a-darwin'])
})

t.run()
