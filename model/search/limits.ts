/** Limits shared by the search engines and the service. */

/** Facet buckets the search answer reports per field at most. */
export const MAX_FACET_VALUES = 200
/** Facet values each shard reports per field at most (the merged answer keeps the largest MAX_FACET_VALUES). */
export const MAX_FACET_VALUES_PER_SHARD = 200
