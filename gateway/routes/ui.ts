/**
 * The catalogue UI: `GET /` serves the page, `GET /svc/ui/app/<file>` its own modules (gateway/ui/) and
 * `GET /svc/ui/vendor/<package>/<file>` the ES modules and styles of the few packages it runs on, straight from
 * node_modules (no build step, no CDN: nothing leaves the machine). Every URL in the page is relative, so it works
 * behind the compose proxy or under any prefix. The page reads the public API routes only, like any client.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Type } from 'typebox'
import { fail } from '../../model/errors.ts'
import type { GatewayDeps } from '../deps.ts'
import type { RouteSpec } from '../http/route.ts'

const UI_DIR = fileURLToPath(new URL('../ui/', import.meta.url))
const ASSETS = '/svc/ui'

/** The packages the page may load files of (from node_modules, wherever npm put them). */
const VENDOR = ['preact', 'htm', 'elkjs', 'uplot', 'diff', 'marked', 'dompurify'] as const

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
}

/** The folder of an installed package: up from its resolved entry to the package.json naming it. */
function packageRoot(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir
    const up = dirname(dir)
    if (up === dir) throw new Error(`ui: cannot find the folder of package ${name}`)
    dir = up
  }
}

/** A file under `root` named by a request path (no escaping it, known types only), or undefined. */
function fileUnder(root: string, relative: string): string | undefined {
  const path = normalize(join(root, relative))
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep) || !TYPES[extname(path)]) return undefined
  return existsSync(path) && statSync(path).isFile() ? path : undefined
}

export function uiRoutes(_deps: GatewayDeps): RouteSpec[] {
  const roots = new Map<string, string>(VENDOR.map((name) => [name, packageRoot(name)]))
  const cache = new Map<string, Buffer>()
  /** Package files never change while the service runs (kept in memory); the UI's own are re-read (small). */
  const read = (path: string, keep: boolean): Buffer => {
    let content = cache.get(path)
    if (!content) {
      content = readFileSync(path)
      if (keep) cache.set(path, content)
    }
    return content
  }
  return [
    {
      method: 'GET', path: '/', scope: 'public', summary: 'The catalogue UI (search, browse, entity pages, lineage)',
      handler: async function serveUiPage() { return { body: undefined, raw: read(join(UI_DIR, 'index.html'), false), contentType: TYPES['.html'], headers: { 'cache-control': 'no-cache' } } },
    },
    {
      method: 'GET', path: `${ASSETS}/*`, scope: 'public', summary: 'A file of the catalogue UI',
      pathParam: Type.Object({ file: Type.String({ description: 'app/<file> or vendor/<package>/<file>' }) }),
      handler: async function serveUiFile(req) {
        const [kind, first, ...rest] = req.params.file!.split('/')
        let path: string | undefined
        if (kind === 'app' && first) path = fileUnder(UI_DIR, [first, ...rest].join('/'))
        else if (kind === 'vendor' && first && roots.has(first)) path = fileUnder(roots.get(first)!, rest.join('/'))
        if (!path) throw fail('NOT_FOUND', `no UI file ${req.params.file}`)
        const cacheControl = kind === 'vendor' ? 'public, max-age=86400' : 'no-cache'
        return { body: undefined, raw: read(path, kind === 'vendor'), contentType: TYPES[extname(path)], headers: { 'cache-control': cacheControl } }
      },
    },
  ]
}
