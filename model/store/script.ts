/**
 * A Lua script file run by EVALSHA, loaded again transparently when Redis answers NOSCRIPT (after a restart, a
 * SCRIPT FLUSH, or on a cluster node that has not seen it yet). Script files open with a comment block listing
 * KEYS, ARGV and return values; a line `-- @include <file>` is replaced by that file (shared pieces are included,
 * not pasted). A cluster routes each run by its first key.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { RedisClient } from './redis.ts'
import { rerouted, SLOT_MOVE_BUDGET_MS, type Route } from './redirects.ts'

/** An argument of a script call: a Buffer goes as its bytes (the apply script's packed ops). */
export type ScriptArg = string | number | Buffer

/** Replica acknowledgements to wait for after a write (WAIT; WAITAOF too where the server has it). */
export interface Durability {
  replicas: number
  timeoutMs: number
  /** The server has WAITAOF (Redis 7.2+): also wait for the local and replicas' append-only files. */
  waitAof: boolean
}

const isNoScript = (err: unknown): boolean => err instanceof Error && err.message.includes('NOSCRIPT')

export class LuaScript {
  readonly name: string
  readonly source: string
  readonly sha: string

  /** Reads `file` (a path relative to `base`, usually `import.meta.url`). */
  constructor(base: string, file: string) {
    this.name = file
    this.source = withIncludes(new URL(file, base))
    this.sha = createHash('sha1').update(this.source).digest('hex')
  }

  /**
   * Runs the script with `keys` and `args`. ioredis follows a cluster's redirections of a single command, but not
   * inside an automatic pipeline whose other commands succeeded: those come back here and are followed
   * (redirects.ts), within the slot-move budget. With `buffers`, the reply's strings come back as Buffers (for a
   * script that answers bytes).
   */
  async run(redis: RedisClient, keys: readonly string[], args: readonly ScriptArg[], { buffers = false } = {}): Promise<unknown> {
    let route: Route = { node: undefined, asking: false }
    let useSource = false
    for (const started = Date.now(); ;) {
      // EVAL of the source (after NOSCRIPT) or EVALSHA, on the client or on a pipeline to one node.
      const send = (target: object) => {
        const t = target as ScriptCalls
        const head = [useSource ? this.source : this.sha, keys.length, ...keys, ...args]
        if (buffers) return useSource ? t.evalBuffer(...head) : t.evalshaBuffer(...head)
        return useSource ? t.eval(...head) : t.evalsha(...head)
      }
      try {
        if (!route.node) return await send(redis)
        const pipeline = route.node.pipeline()
        if (route.asking) pipeline.asking()
        send(pipeline)
        const [err, reply] = ((await pipeline.exec()) ?? []).at(-1) as [Error | null, unknown]
        if (err) throw err
        return reply
      } catch (err) {
        if (!useSource && isNoScript(err)) { useSource = true; continue }
        const next = err instanceof Error && Date.now() - started < SLOT_MOVE_BUDGET_MS ? await rerouted(redis, err) : undefined
        if (!next) throw err
        route = next
      }
    }
  }

  /**
   * Runs the script, then waits on the same connection (so on the node that ran it) until `durability.replicas`
   * replicas acknowledged its writes; answers the script's reply and the replicas that acknowledged. While the
   * script's slot moves between cluster nodes the pair is sent again (redirects.ts): to the node an ASK or MOVED
   * names, or after a pause on TRYAGAIN/CLUSTERDOWN; a redirected script did not run, so sending it again is safe.
   */
  async runDurably(redis: RedisClient, keys: readonly string[], args: readonly ScriptArg[], durability: Durability): Promise<{ reply: unknown; acked: number }> {
    if (durability.replicas <= 0) return { reply: await this.run(redis, keys, args), acked: 0 }
    let route: Route = { node: undefined, asking: false }
    let useSource = false
    for (const started = Date.now(); ;) {
      const pipeline = (route.node ?? redis).pipeline()
      if (route.asking) pipeline.asking()
      if (useSource) pipeline.eval(this.source, keys.length, ...keys, ...args)
      else pipeline.evalsha(this.sha, keys.length, ...keys, ...args)
      if (durability.waitAof) pipeline.call('WAITAOF', '0', String(durability.replicas), String(durability.timeoutMs))
      else pipeline.call('WAIT', String(durability.replicas), String(durability.timeoutMs))
      const results = ((await pipeline.exec()) ?? []) as [Error | null, unknown][]
      const [[scriptErr, reply], [waitErr, waited]] = results.slice(route.asking ? 1 : 0) as [Error | null, unknown][]
      if (scriptErr && !useSource && isNoScript(scriptErr)) { useSource = true; continue }
      if (scriptErr) {
        const next = Date.now() - started < SLOT_MOVE_BUDGET_MS ? await rerouted(redis, scriptErr) : undefined
        if (!next) throw scriptErr
        route = next
        continue
      }
      if (waitErr) throw waitErr
      const acked = Array.isArray(waited) ? Number(waited[1]) : Number(waited)
      return { reply, acked }
    }
  }
}

/**
 * EVAL and EVALSHA on an ioredis client or pipeline: each answers a promise of the reply on a client, the pipeline
 * itself on a pipeline. The `Buffer` forms (reply strings as Buffers) are defined for every command but not in
 * ioredis's typings (`callBuffer` would do, but loses its command name inside an automatic pipeline).
 */
interface ScriptCalls {
  eval(...args: ScriptArg[]): unknown
  evalsha(...args: ScriptArg[]): unknown
  evalBuffer(...args: ScriptArg[]): unknown
  evalshaBuffer(...args: ScriptArg[]): unknown
}

function withIncludes(url: URL): string {
  return readFileSync(url, 'utf8').replace(/^-- @include (\S+)$/gm, (_, file: string) => withIncludes(new URL(file, url)))
}
