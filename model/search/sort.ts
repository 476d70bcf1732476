/**
 * Search orders other than relevance (`sort: name | lastChanged` on route 6), outside the engines: the service
 * takes the SORT_WINDOW most relevant matches in the engines' own order and re-orders them here, pure. Names come
 * from the search document's autocomplete fields (the entity's name or title), else the urn; "last changed" is
 * the newest `created.time` of the entity's latest aspects. Beyond the window the order is not defined (the total
 * still counts every match).
 */
export const SORTS = ['relevance', 'name', 'lastChanged'] as const
export type SortOrder = (typeof SORTS)[number]

/** How many of the most relevant matches a non-relevance order covers. */
export const SORT_WINDOW = 1000

/** A document's (field -> values) sort name: the first value of the first named field that has one, lower-cased. */
export function sortName(urn: string, doc: Record<string, string[]> | null, nameFields: readonly string[]): string {
  for (const field of nameFields) {
    const value = doc?.[field]?.find((v) => typeof v === 'string' && v.trim() !== '')
    if (value) return value.toLowerCase()
  }
  return urn.toLowerCase()
}

/** The newest `created.time` among latest-aspect envelopes (JSON strings); 0 when none says. */
export function lastChanged(envelopes: readonly string[]): number {
  let newest = 0
  for (const raw of envelopes) {
    try {
      const time = (JSON.parse(raw) as { created?: { time?: unknown } }).created?.time
      if (typeof time === 'number' && time > newest) newest = time
    } catch { /* an unreadable envelope says nothing */ }
  }
  return newest
}

/** `urns` re-ordered: by name ascending, or last changed newest first; ties by urn. */
export function sortUrns(urns: readonly string[], order: Exclude<SortOrder, 'relevance'>, keyOf: (urn: string) => string | number): string[] {
  const keyed = urns.map((urn) => ({ urn, key: keyOf(urn) }))
  const byUrn = (a: { urn: string }, b: { urn: string }) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0)
  keyed.sort(order === 'name'
    ? (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : byUrn(a, b))
    : (a, b) => (b.key as number) - (a.key as number) || byUrn(a, b))
  return keyed.map((k) => k.urn)
}
