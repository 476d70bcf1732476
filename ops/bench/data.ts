/** Generated catalogue data for benchmarks: datasets on a handful of platforms with names, descriptions, owners. */

const PLATFORMS = ['hive', 'kafka', 'snowflake', 'postgres', 'mysql', 's3', 'bigquery', 'redshift']
const WORDS = ['orders', 'customers', 'events', 'payments', 'sessions', 'inventory', 'shipments', 'clicks', 'users', 'invoices',
  'ledger', 'refunds', 'campaigns', 'products', 'reviews', 'returns', 'carts', 'accounts', 'metrics', 'audit']

/** The urn of generated dataset `i`. */
export function datasetUrn(i: number): string {
  const platform = PLATFORMS[i % PLATFORMS.length]
  return `urn:svc:dataset:(urn:svc:dataPlatform:${platform},db${i % 50}.${WORDS[i % WORDS.length]}_${WORDS[(i * 7) % WORDS.length]}_${i},PROD)`
}

/** A proposal giving dataset `i` its properties (the first write also creates its key, browse paths, platform). */
export function datasetProposal(i: number, revision = 0) {
  return {
    entityType: 'dataset',
    entityUrn: datasetUrn(i),
    changeType: 'UPSERT',
    aspectName: 'datasetProperties',
    aspect: {
      value: JSON.stringify({
        name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`,
        description: `Table of ${WORDS[(i * 3) % WORDS.length]} for team ${i % 97} (revision ${revision})`,
        customProperties: { owner_team: `team-${i % 97}` },
      }),
      contentType: 'application/json',
    },
  }
}

/** Upstream-format MCPs (Avro-JSON file form) for `count` datasets, as the CLI reads them. */
export function datasetMcps(count: number, offset = 0) {
  return Array.from({ length: count }, (_, k) => ({ auditHeader: null, ...datasetProposal(offset + k), systemMetadata: null }))
}

export const BENCH_PLATFORMS = PLATFORMS
