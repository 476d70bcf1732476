/**
 * The CLI's HTTP client for the service API: base URL from `--url` or SVC_URL, else the API of the `npm start`
 * running on DATA_DIR (its instance record, as the Redis commands find its Redis); bearer token from `--token` or
 * SVC_TOKEN; JSON in and out, and a few retries when the service says it is busy (429/503) or cannot be reached.
 */
import { resolve } from 'node:path'
import { loadConfig } from '../../model/config.ts'
import { runningInstance } from '../instance.ts'

export interface ApiTarget {
  url: string
  token?: string
}

export interface ApiResponse {
  status: number
  body: any
}

/**
 * The API target from `--url` / `--token`, else SVC_URL / SVC_TOKEN, else the API of the `npm start` running on
 * DATA_DIR; throws a one-line error when there is none.
 */
export function apiTarget(values: { url?: string; token?: string }, env: NodeJS.ProcessEnv = process.env): ApiTarget {
  const token = values.token ?? (env.SVC_TOKEN || undefined)
  const given = values.url ?? (env.SVC_URL || undefined)
  if (given) return { url: given.replace(/\/+$/, ''), token }
  const dataDir = loadConfig(env).dataDir
  const running = runningInstance(dataDir)
  if (running?.apiUrl) return { url: running.apiUrl.replace(/\/+$/, ''), token }
  throw new Error(`SVC_URL is not set and no npm start runs on the data folder ${resolve(dataDir)}: start the service (npm start), or set SVC_URL (and DATA_DIR if it uses another folder)`)
}

const RETRIES = 4
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** POSTs `body` as JSON (or sends `method` without one); retries 429/503 and connection failures with backoff. */
export async function callApi(target: ApiTarget, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', [loadConfig().namespace.protocolHeader.toLowerCase()]: '2.0.0' }
  if (target.token) headers.authorization = `Bearer ${target.token}`
  for (let attempt = 0; ; attempt++) {
    let res: Response
    try {
      res = await fetch(`${target.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    } catch (err) {
      if (attempt >= RETRIES) throw new Error(`cannot reach ${target.url}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`)
      await sleep(250 * 2 ** attempt)
      continue
    }
    if ((res.status === 429 || res.status === 503) && attempt < RETRIES) {
      const wait = Number(res.headers.get('retry-after')) * 1000 || 250 * 2 ** attempt
      await res.arrayBuffer()
      await sleep(wait)
      continue
    }
    const text = await res.text()
    let parsed: unknown = text
    try { parsed = text ? JSON.parse(text) : undefined } catch { /* not JSON: keep the text */ }
    return { status: res.status, body: parsed }
  }
}

/** A one-line description of an error answer (`401 UNAUTHORIZED: ...`). */
export function describeError(res: ApiResponse): string {
  const b = res.body as { code?: string; message?: string } | string | undefined
  if (b && typeof b === 'object' && b.code) return `${res.status} ${b.code}: ${b.message ?? ''}`
  return `HTTP ${res.status}${typeof b === 'string' && b ? `: ${b.slice(0, 200)}` : ''}`
}
