/**
 * The repository stands alone: its Markdown pages refer only to files that are in it (links and `path` mentions),
 * and the README tells a newcomer what the first hour needs (how to stop, where the data lives, how to reset, the
 * admin token, what loading the demo catalogue prints and why).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SKIP = new Set(['node_modules', '.git', 'data'])
/** Pages that tell where data copied from upstream came from (its paths are upstream's, not ours). */
const PROVENANCE = /^test\/fixtures\//
/** Files the service writes at run time, which a page may name. */
const RUNTIME_FILES = new Set(['svc-instance.json'])

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : []
  })
}

/** Files a Markdown page refers to: relative link targets and `code` spans that look like repository paths. */
export function referencedFiles(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t))
  // Spans starting with `/` are URL paths of the service (`/svc/openapi.json`), not files.
  const spans = [...markdown.matchAll(/`([\w.-][\w./-]*\.(?:md|ts|json|yaml|yml|png|lua|conf))`/g)].map((m) => m[1]!).filter((f) => !RUNTIME_FILES.has(f))
  return [...new Set([...links, ...spans])]
}

const t = suite('README and the repository\'s pages')

t('every file a Markdown page refers to is in the repository', () => {
  const missing: string[] = []
  for (const page of markdownFiles(ROOT).filter((p) => !PROVENANCE.test(relative(ROOT, p)))) {
    for (const ref of referencedFiles(readFileSync(page, 'utf8'))) {
      if (!existsSync(join(dirname(page), ref)) && !existsSync(join(ROOT, ref))) missing.push(`${relative(ROOT, page)}: ${ref}`)
    }
  }
  assert.equal(missing, [])
})

t('the check itself: a page naming a file that is not there is caught', () => {
  assert.equal(referencedFiles('see `SPEC.md` and [the design](DESIGN.md), `npm start`, [web](https://x.y/a.md)'), ['DESIGN.md', 'SPEC.md'])
})

t('the README says how to stop, where the data lives, how to reset, and about ADMIN_TOKEN', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  for (const needed of ['Ctrl-C', 'the data is kept in', '**Where the data lives**', 'rm -rf data', 'ADMIN_TOKEN=', 'redis-cli -p 6380',
    'rejected by entity type:', 'npm run screenshots', 'npm ci']) {
    assert.ok(readme.includes(needed), `the README mentions ${needed}`)
  }
})

t.run()
