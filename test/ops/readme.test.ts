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

t('the configuration table renders whole: one block of three-cell rows, a row for every variable the service reads', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1))
  const lines = section.split('\n')
  const first = lines.findIndex((l) => l.startsWith('|'))
  const rows = lines.slice(first, lines.findIndex((l, i) => i > first && !l.startsWith('|')))
  assert.ok(rows.length > 20)
  assert.not.ok(lines.slice(first + rows.length).some((l) => l.startsWith('|')), 'a row outside the table')
  for (const row of rows) assert.is(row.replace(/`[^`]*`/g, 'x').split('|').length, 5, row)
  const config = readFileSync(join(ROOT, 'model/config.ts'), 'utf8')
  const read = new Set([...config.matchAll(/env, '([A-Z_]+)'|env\.([A-Z_]+)/g)].map((m) => m[1] ?? m[2]!))
  const documented = rows.join('\n')
  for (const name of read) assert.ok(documented.includes(`\`${name}\``), `${name} has a row`)
})

t('commands run as written on a machine whose node is older than 22: no plain `node <file>.ts`', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const plain = [...readme.matchAll(/(?<![\w/.])node [\w./-]+\.ts/g)].map((m) => m[0])
  assert.equal(plain, [])
})

t('the demo ingest summary the README shows is what the demo holds: every proposal accepted, exit 0', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const twins = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/upstream/bootstrap_mce.requests.json'), 'utf8')) as { body: any }[]
  const proposals = twins.reduce((n, r) => n + (r.body.proposal ? 1 : (Object.values(r.body.entity.value)[0] as { aspects: unknown[] }).aspects.length), 0)
  assert.ok(readme.includes(`\naccepted: ${proposals}\nrejected: 0\n${proposals} proposals (one per aspect) in `), `accepted: ${proposals}`)
  assert.ok(readme.includes('prints a summary and exits 0'))
})

t.run()
