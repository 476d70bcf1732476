/**
 * A closed-loop HTTP load generator: `clients` concurrent callers, each sending its next request as soon as the
 * previous answered, over keep-alive connections. Reports throughput and latency percentiles.
 */
import { spawn } from 'node:child_process'
import http from 'node:http'
import { ROOT } from './processes.ts'
import { percentile } from './stats.ts'

export interface LoadResult {
  requests: number
  seconds: number
  perSecond: number
  p50: number
  p99: number
  errors: number
}

export interface Request {
  method: 'GET' | 'POST'
  path: string
  body?: string
}

/**
 * Sends one request on `agent`; resolves with the status code once the body is read. With `timeoutMs`, a request
 * without an answer by then is abandoned and rejects with an error whose code is 'TIMEOUT'.
 */
export function send(base: URL, agent: http.Agent, req: Request, timeoutMs?: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      r.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'TIMEOUT' }))
    }, timeoutMs)
    const r = http.request({
      host: base.hostname, port: base.port, method: req.method, path: req.path, agent,
      headers: req.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(req.body) } : {},
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => { clearTimeout(timer); resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }) })
      res.on('error', (err) => { clearTimeout(timer); reject(err) })
    })
    r.on('error', (err) => { clearTimeout(timer); reject(err) })
    if (req.body) r.write(req.body)
    r.end()
  })
}

/** Runs `total` requests (`next(i)` builds the i-th) with `clients` in flight. */
export async function runLoad(baseUrl: string, clients: number, total: number, next: (i: number) => Request): Promise<LoadResult> {
  const base = new URL(baseUrl)
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients })
  const latencies: number[] = []
  let issued = 0
  let errors = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: clients }, async () => {
    while (issued < total) {
      const i = issued++
      const t0 = performance.now()
      const res = await send(base, agent, next(i)).catch(() => ({ status: 0, body: '' }))
      latencies.push(performance.now() - t0)
      if (res.status !== 200) errors++
    }
  }))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return { requests: total, seconds, perSecond: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors }
}

/**
 * Restores indices through the route (`POST /operations?action=restoreIndices`), batch after batch of `batchSize`
 * rows, until the last; `select` narrows the rows (`urnLike`, `aspect`, ...). Resolves with the rows restored.
 */
export async function restoreThrough(baseUrl: string, token: string, select: Record<string, unknown>, batchSize = 2000): Promise<number> {
  let start: number | null = 0
  let restored = 0
  while (start !== null) {
    const res = await fetch(`${baseUrl}/operations?action=restoreIndices`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...select, start, batchSize }),
    })
    if (!res.ok) throw new Error(`restoreIndices -> ${res.status} ${(await res.text()).slice(0, 300)}`)
    const { value } = await res.json() as { value: { result: { rowsRestored: number; nextStart: number | null } } }
    restored += value.result.rowsRestored
    start = value.result.nextStart
  }
  return restored
}

/**
 * Runs `svc restore --rebuild` (the CLI, with the service's `env` and Node `flags`) to its end: every index deleted,
 * then rebuilt from the rows by the running workers. `started` hears the CLI's process id (to sample its CPU).
 * Resolves with the rows it restored and what it printed (keys deleted, its own restore rate).
 */
export async function rebuildThroughCli(env: Record<string, string>, flags: readonly string[], started: (pid: number) => void = () => {}): Promise<{ rows: number; output: string }> {
  const child = spawn(process.execPath, [...flags, 'ops/cli/main.ts', 'restore', '--rebuild'], { cwd: ROOT, env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  started(child.pid!)
  let out = ''
  let err = ''
  child.stdout!.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr!.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-2000) })
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  const rows = /rows restored: (\d+)/.exec(out)
  if (code !== 0 || !rows) throw new Error(`svc restore --rebuild exited with ${code}: ${out.slice(-500)} ${err.slice(-500)}`)
  return { rows: Number(rows[1]), output: out.trim() }
}
