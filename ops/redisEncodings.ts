/**
 * The encoding limits the Redis servers this project starts are given (the embedded default, the local clusters of
 * tests and benchmarks; compose.yaml gives its servers the same): a hash, sorted set or set whose members are each
 * at most VALUE_BYTES long stays one compact listpack up to Redis's entry limits (128 members, 512 for a set), where
 * Redis's default 64 turns it into a table at its first urn (most urns are longer). An entity's own keys (its
 * aspects, its stored search document, a value's posting of one urn) are small collections of such values: the
 * live benchmark's catalogue held 8,994 bytes a dataset against 9,740 with Redis 7.4's defaults (20,000 datasets
 * applied as the workers apply them, stop 64). Reads of a listpack scan it, which its entry limit keeps short.
 */
import { execFileSync } from 'node:child_process'

/** The longest member a small collection keeps compact. */
export const VALUE_BYTES = 512

const byBinary = new Map<string, string[]>()

/**
 * The server arguments for `binary`'s version: listpack names from Redis 7 (ziplist before), sets' from 7.2. None
 * when its version cannot be read (a missing binary then fails to start with its own message).
 */
export function encodingArgs(binary = 'redis-server'): string[] {
  let args = byBinary.get(binary)
  if (args) return args
  let version: RegExpExecArray | null = null
  try {
    version = /v=(\d+)\.(\d+)/.exec(execFileSync(binary, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
  } catch { /* not found or not runnable */ }
  args = version ? encodingArgsOf(Number(version[1]), Number(version[2])) : []
  byBinary.set(binary, args)
  return args
}

/** The arguments for Redis `major`.`minor`, pure. */
export function encodingArgsOf(major: number, minor: number): string[] {
  const kind = major >= 7 ? 'listpack' : 'ziplist'
  const args = ['hash', 'zset', ...(major > 7 || (major === 7 && minor >= 2) ? ['set'] : [])]
  return args.flatMap((type) => [`--${type}-max-${kind}-value`, String(VALUE_BYTES)])
}
