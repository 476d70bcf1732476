/**
 * The values a string condition the module cannot match itself resolves to (a range, GREATER_THAN...; a START_WITH,
 * END_WITH or CONTAIN of one character, below the module's shortest wildcard, MINPREFIX 2; or of the empty string,
 * which every value satisfies), read from one index's lexicon of the field (companions.ts `sv:`; the urns of `live`
 * for the urn field). A range or a START_WITH is a lexicographic range of it, counted first (ZLEXCOUNT): more than the
 * bound is FILTER_TOO_BROAD before any is read, as on the native engine. A one-character END_WITH or CONTAIN is no
 * range: the lexicon is read a chunk at a time and each value compared here, until more than the bound matched. So
 * the work of such a condition is bounded by the values it may match (or, for that last kind, by the lexicon read in
 * short commands), not by a command listing the field's every value (FT.TAGVALS: ~110 ms at 100,000 names), and the
 * union the module then walks is bounded too. On a URN field only urns are kept: the lexicon also holds their ids
 * (`tags:Gold` is EQUAL by id), which a range or a START_WITH compares as the whole urn, as the native engine does.
 */
import type { Criterion } from '../types.ts'
import { tooBroad } from '../limits.ts'
import { liveKey, stringValuesKey, type Commands } from './companions.ts'

/** Lexicon values a one-character END_WITH or CONTAIN reads per command. */
const SCAN_STEP = 1000

/** `[min, max]` of ZRANGEBYLEX for a condition against `v`: every value when the condition is a wildcard of ''. */
export function lexBoundsOf(condition: string, v: string): [string, string] {
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
 * `max` (MAX_FILTER_VALUES; more: FILTER_TOO_BROAD naming the criterion); only urns when
 * `urnField` (a URN field's lexicon holds their ids too).
 */
export async function rangeValues(client: Commands, index: string, c: Criterion, max: number, urnField = false): Promise<string[]> {
  const key = c.field === 'urn' ? liveKey(index) : stringValuesKey(index, c.field)
  const kept = (v: string) => !urnField || v.startsWith('urn:')
  const found = new Set<string>()
  const tooMany = (value: string, n: number) => tooBroad(`the filter ${c.field} ${c.condition} ${JSON.stringify(value)}`, n, max)
  for (const value of c.values) {
    const needle = c.field === 'urn' ? value : value.toLowerCase()
    if ((c.condition === 'END_WITH' || c.condition === 'CONTAIN') && needle !== '') {
      const matches = c.condition === 'END_WITH' ? (v: string) => v.endsWith(needle) : (v: string) => v.includes(needle)
      for (let start = 0; ; start += SCAN_STEP) {
        const chunk = (await client.sendCommand(['ZRANGE', key, String(start), String(start + SCAN_STEP - 1)])) as string[]
        for (const v of chunk) if (matches(v) && kept(v)) found.add(v)
        if (found.size > max) throw tooMany(value, found.size)
        if (chunk.length < SCAN_STEP) break
      }
      continue
    }
    const [min, top] = lexBoundsOf(c.condition, needle)
    const n = Number(await client.sendCommand(['ZLEXCOUNT', key, min, top]))
    if (found.size + n > max) throw tooMany(value, found.size + n)
    for (const v of (await client.sendCommand(['ZRANGEBYLEX', key, min, top])) as string[]) if (kept(v)) found.add(v)
  }
  return [...found]
}
