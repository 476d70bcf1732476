/** Small statistics for benchmark figures: percentiles of latencies and medians of rounds. */

/** The p-th percentile (0..100) of `values` (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export const median = (values: readonly number[]): number => percentile(values, 50)

/** Rounds to a sensible number of significant digits for a table. */
export function round(n: number): number {
  if (!Number.isFinite(n)) return n
  const abs = Math.abs(n)
  return abs >= 100 ? Math.round(n) : abs >= 10 ? Math.round(n * 10) / 10 : Math.round(n * 100) / 100
}
