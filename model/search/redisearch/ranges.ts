/**
 * The values a string condition the module cannot match itself resolves to (a range, GREATER_THAN...; or a
 * START_WITH, END_WITH or CONTAIN of the empty string, which every value satisfies), read as a lexicographic range
 * of one index's lexicon of the field (companions.ts `sv:`; the urns of `live` for the urn field), after counting
 * them (ZLEXCOUNT): more than the bound is FILTER_TOO_BROAD before any is read, as on the native engine. So the
 * work of such a condition is bounded by the values it may match, not by the values the field has (FT.TAGVALS
 * listed all of them: ~110 ms at 100,000 names), and the union the module then walks is bounded too.
 */
import type { Criterion } from '../types.ts'
import { tooBroad } from '../limits.ts'
import { liveKey, stringValuesKey, type Commands } from './companions.ts'

/** `[min, max]` of ZRANGEBYLEX for a condition against `v`: every value when the condition is a wildcard of ''. */
function lexBoundsOf(condition: string, v: string): [string, string] {
  switch (condition) {
    case 'GREATER_THAN': return [`(${v}`, '+']
    case 'GREATER_THAN_OR_EQUAL_TO': return [`[${v}`, '+']
    case 'LESS_THAN': return ['-', `(${v}`]
    case 'LESS_THAN_OR_EQUAL_TO': return ['-', `[${v}`]
    case 'START_WITH': return v === '' ? ['-', '+'] : [`[${v}`, `[${v}\xff`]
    default: return ['-', '+'] // END_WITH, CONTAIN of '' (others are wildcards the module matches)
  }
}

/**
 * The values of one index that a criterion's string condition matches (lower-cased; urns as written), at most
 * `max` (more: FILTER_TOO_BROAD naming the criterion, with `total`, the bound of the whole query).
 */
export async function rangeValues(client: Commands, index: string, c: Criterion, max: number, total: number): Promise<string[]> {
  const key = c.field === 'urn' ? liveKey(index) : stringValuesKey(index, c.field)
  const found = new Set<string>()
  for (const value of c.values) {
    const [min, top] = lexBoundsOf(c.condition, c.field === 'urn' ? value : value.toLowerCase())
    const n = Number(await client.sendCommand(['ZLEXCOUNT', key, min, top]))
    if (found.size + n > max) throw tooBroad(`the filter ${c.field} ${c.condition} ${JSON.stringify(value)}`, found.size + n, max, total)
    for (const v of (await client.sendCommand(['ZRANGEBYLEX', key, min, top])) as string[]) found.add(v)
  }
  return [...found]
}
