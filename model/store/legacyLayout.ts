/**
 * The key layout before shards (layout 1), read by the migration only: per-entity keys `<prefix>{<urn>}:<rest>`
 * (`a`, `m`, `h:<aspect>`, `ts:<aspect>`, `out:<rel>`, `in:<rel>`), catalogue-wide `rows`, `mcl`, `run:<id>`,
 * indexes under `ix:`, `doc:`, `br:`, RediSearch indexes `idx:<type>`, and queues `q:ingest-<n>`. Pure.
 */

/** What an old entity key holds: the urn and which of its keys it is. */
export type LegacyEntityKey =
  | { urn: string; kind: 'latest' | 'meta' }
  | { urn: string; kind: 'history' | 'timeseries'; aspect: string }
  | { urn: string; kind: 'edges' }

/** Parses an old per-entity key (`<prefix>{<urn>}:<rest>`); undefined for any other key. */
export function parseLegacyEntityKey(prefix: string, key: string): LegacyEntityKey | undefined {
  if (!key.startsWith(`${prefix}{`)) return undefined
  const cut = key.lastIndexOf('}:')
  if (cut < 0) return undefined
  const urn = key.slice(prefix.length + 1, cut)
  const rest = key.slice(cut + 2)
  // A shard-tagged key of the current layout (`{s3}:...`) is not an old entity key.
  if (!urn.startsWith('urn:')) return undefined
  if (rest === 'a') return { urn, kind: 'latest' }
  if (rest === 'm') return { urn, kind: 'meta' }
  if (rest.startsWith('h:')) return { urn, kind: 'history', aspect: rest.slice(2) }
  if (rest.startsWith('ts:')) return { urn, kind: 'timeseries', aspect: rest.slice(3) }
  if (rest.startsWith('out:') || rest.startsWith('in:')) return { urn, kind: 'edges' }
  return undefined
}

/** The old catalogue-wide keys and key patterns, everything the migration removes once it has moved the data. */
export const legacyKeys = (prefix: string) => ({
  rows: `${prefix}rows`,
  changeLog: `${prefix}mcl`,
  runPattern: `${prefix}run:*`,
  entityPattern: `${prefix}{*}:*`,
  indexPatterns: [`${prefix}ix:*`, `${prefix}doc:*`, `${prefix}br:*`, `${prefix}idx:*`],
  queuePattern: `${prefix}q:ingest-*`,
  searchIndex: (entityType: string) => `${prefix}idx:${entityType}`,
})
