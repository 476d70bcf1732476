/** Grouping a list's positions by a key of each item, pure: for work sent once per group (a partition, a shard). */

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
