/** Limits shared by the search engines and the service. */
import { fail } from '../errors.ts'

/**
 * Facet values each of several shards reports per field at least, where a shard reports its largest only: the merged
 * largest are exact while a field has at most this many values in a shard.
 */
export const MAX_FACET_VALUES_PER_SHARD = 200

/** The facet values each shard reports when the answer shows `shown` per field: as many on one shard, more on several. */
export function shardFacetValues(shown: number, shards: number): number {
  return shards === 1 ? shown : Math.max(shown, MAX_FACET_VALUES_PER_SHARD)
}

/**
 * The 400 of a string condition or word prefix (`what`, e.g. `the filter name START_WITH "a"`) matching `matched`
 * distinct values in one shard, more than its `max` there (`total`: the bound of the whole query, MAX_FILTER_VALUES).
 */
export function tooBroad(what: string, matched: number, max: number, total: number): Error {
  const bound = max === total ? `at most ${max}` : `at most ${max} per shard (${total} in all)`
  return fail('FILTER_TOO_BROAD', `${what} matches ${matched} distinct values in one shard; a query may match ${bound}: narrow it`,
    [{ path: what.startsWith('the word prefix') ? 'input' : 'filter', message: `${what}: ${matched} values` }])
}
