/** Gathering what several shards hold into one answer, pure. */

/** Merges urn lists that are each in order into one ordered, distinct list (code-unit order, as Redis sorts). */
export function mergeOrdered(lists: readonly string[][]): string[] {
  return [...new Set(lists.flat())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}
