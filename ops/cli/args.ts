/**
 * Argument parsing for the CLI commands: `node:util` parseArgs in strict mode, with every problem turned into a
 * `UsageError` so the dispatcher can print the command's usage line and exit 2 in one place.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'

/** A bad command line: the dispatcher prints the message and the usage line, and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

type Options = NonNullable<ParseArgsConfig['options']>

/** Parses `argv` against `options`; unknown options, missing values and wrong positional counts are usage errors. */
export function parse<O extends Options>(argv: string[], options: O, positionals: { min: number; max: number; name?: string }) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  const count = parsed.positionals.length
  if (count < positionals.min) throw new UsageError(`missing ${positionals.name ?? 'argument'}`)
  if (count > positionals.max) throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max]}"`)
  return parsed
}

/** A positive integer option value, or `fallback` when absent. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got "${value}"`)
  return n
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** A duration such as `30d`, `12h`, `15m`, `90s` or `2w`, in milliseconds. */
export function durationMs(value: string, name: string): number {
  const match = /^(\d+)([smhdw])$/.exec(value.trim())
  if (!match || Number(match[1]) === 0) throw new UsageError(`--${name} must look like 30d, 12h, 15m, 90s or 2w, got "${value}"`)
  return Number(match[1]) * UNITS[match[2]!]!
}
