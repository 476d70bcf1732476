/** Limits shared by the search engines and the service. */
import { fail } from '../errors.ts'

/** Facet buckets the search answer reports per field at most. */
export const MAX_FACET_VALUES = 200
/** Facet values each shard reports per field at most (the merged answer keeps the largest MAX_FACET_VALUES). */
export const MAX_FACET_VALUES_PER_SHARD = 200

/**
 * The 400 of a string condition or word prefix (`what`, e.g. `the filter name START_WITH "a"`) matching `matched`
 * distinct values in one shard, more than its `max` there (`total`: the bound of the whole query, MAX_FILTER_VALUES).
 */
export function tooBroad(what: string, matched: number, max: number, total: number): Error {
  const bound = max === total ? `at most ${max}` : `at most ${max} per shard (${total} in all)`
  return fail('FILTER_TOO_BROAD', `${what} matches ${matched} distinct values in one shard; a query may match ${bound}: narrow it`,
    [{ path: what.startsWith('the word prefix') ? 'input' : 'filter', message: `${what}: ${matched} values` }])
}
