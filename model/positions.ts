/**
 * Lists by position, pure: their positions grouped by a key of each item (for work sent once per group: a partition, a
 * shard), and whether two lists hold the same items in the same order.
 */

/**
 * The positions of `items` by `keyOf(item)`, each group's in order, the groups in the order of their first item;
 * an item whose key is undefined is left out.
 */
export function positionsBy<T, K>(items: readonly T[], keyOf: (item: T, position: number) => K | undefined): Map<K, number[]> {
  const groups = new Map<K, number[]>()
  items.forEach((item, i) => {
    const key = keyOf(item, i)
    if (key === undefined) return
    const group = groups.get(key)
    if (group) group.push(i)
    else groups.set(key, [i])
  })
  return groups
}

/** Whether `a` and `b` hold the same items (===) in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}
