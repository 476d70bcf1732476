/**
 * Redis mutations as data. Pure planners (model/store/plan*.ts, the search engines' document ops) return lists of
 * ops; the apply script (scripts/apply-1.lua) executes a list atomically. Keeping them data makes every planner
 * testable without Redis.
 */

/** `[command, ...args]`: a whitelisted Redis write command, or a link op (LINK, UNLINK, ZLINK, ZUNLINK: see apply-1.lua). */
export type Op = string[]

/** Encodes ops as the apply script's ARGV tail: count, then command, argc, args... for each. */
export function encodeOps(ops: readonly Op[]): string[] {
  const out: string[] = [String(ops.length)]
  for (const [cmd, ...args] of ops) out.push(cmd!, String(args.length), ...args)
  return out
}
