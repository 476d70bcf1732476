/**
 * A Lua script file run by EVALSHA, loaded again transparently when Redis answers NOSCRIPT (after a restart or a
 * SCRIPT FLUSH). Script files open with a comment block listing KEYS, ARGV and return values; a line
 * `-- @include <file>` is replaced by that file (shared pieces are included, not pasted).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Redis } from 'ioredis'

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

  /** Loads the script into Redis's script cache (before pipelining EVALSHA, which cannot fall back itself). */
  async load(redis: Redis): Promise<void> {
    await redis.script('LOAD', this.source)
  }

  /** Runs the script with `keys` and `args`. */
  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args)
    } catch (err) {
      if (!(err instanceof Error) || !err.message.includes('NOSCRIPT')) throw err
      return redis.eval(this.source, keys.length, ...keys, ...args)
    }
  }
}

function withIncludes(url: URL): string {
  return readFileSync(url, 'utf8').replace(/^-- @include (\S+)$/gm, (_, file: string) => withIncludes(new URL(file, url)))
}
