/** Limits shared by the search engines and the service. */
import { fail } from '../errors.ts'

/**
 * The facet values each shard reports per field when the answer shows `shown`: as many on one shard; every value on
 * several, whose counts are summed before the largest are kept (each shard's largest alone missed a value that is
 * large over the shards together: with 360 owners, ~225 in each of 16 shards, the 200 largest of each left out
 * owners of 20-23 datasets and showed owners of 19). The shards' counts are this process's (each engine counts a
 * shard's facets here or reads them whole: native engine.ts matchAllCounts), so summing every value costs its CPU,
 * not Redis's.
 */
export function shardFacetValues(shown: number, shards: number): number {
  return shards === 1 ? shown : Infinity
}

/**
 * The 400 of a string condition or word prefix (`what`, e.g. `the filter name START_WITH "a"`) matching `matched`
 * distinct values in one shard, more than MAX_FILTER_VALUES (`max`). The bound is each shard's whole (each shard's
 * command is bounded alike), so that a query answered on one server is answered on a cluster of the same data, where
 * a shard holds most of a field's values (owners, platforms) whatever the number of shards.
 */
export function tooBroad(what: string, matched: number, max: number): Error {
  return fail('FILTER_TOO_BROAD', `${what} matches ${matched} distinct values in one shard; a query may match at most ${max}: narrow it`,
    [{ path: what.startsWith('the word prefix') ? 'input' : 'filter', message: `${what}: ${matched} values` }])
}
