/**
 * Order keys (model/search/redisearch/orderKeys.ts), pure: a greater key means a greater value, and a range answered
 * as its clause on the keys plus its boundary's values (evaluated here as the module and ZRANGEBYLEX would) matches
 * exactly the values a comparison by code points does.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { compareCodePoints, orderKey, orderKeyFields, orderRange, type RangeCondition } from '../../../model/search/redisearch/orderKeys.ts'

/** Strings of few letters (so that they share long prefixes), with now and then one from far in Unicode. */
const text = fc.array(fc.oneof(fc.constantFrom('a', 'b', '_', '0'), fc.constantFrom('é', '中', '😀', '\u{fffd}', '\u{ffff}')), { maxLength: 16 }).map((cs) => cs.join(''))
const compareKeys = (a: number[], b: number[]) => { for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! < b[k]! ? -1 : 1; return 0 }

test('a greater order key is a greater value; equal values have equal keys; every chunk is exact in a double', () => {
  fc.assert(fc.property(text, text, (a, b) => {
    const ka = orderKey(a)
    const kb = orderKey(b)
    if (compareKeys(ka, kb) > 0) assert.ok(compareCodePoints(a, b) > 0, `${a} ${b}`)
    if (a === b) assert.equal(ka, kb)
    for (const n of ka) assert.ok(Number.isSafeInteger(n) && n >= 0 && n < 2 ** 48)
  }), { numRuns: 2000 })
})

/** Whether a number matches a RediSearch numeric range such as `[(5 +inf]`, `[-inf (5]` or `[5 5]`. */
function inRange(n: number, range: string): boolean {
  const [lo, hi] = range.slice(1, -1).split(' ') as [string, string]
  const low = lo === '-inf' ? -Infinity : Number(lo.replace('(', ''))
  const high = hi === '+inf' ? Infinity : Number(hi.replace('(', ''))
  return (lo.startsWith('(') ? n > low : n >= low) && (hi.startsWith('(') ? n < high : n <= high)
}

/** Whether a value is within ZRANGEBYLEX bounds (`[v`, `(v`). */
function inLex(v: string, [min, max]: [string, string]): boolean {
  const lo = compareCodePoints(v, min.slice(1))
  const hi = compareCodePoints(v, max.slice(1))
  return (min[0] === '(' ? lo > 0 : lo >= 0) && (max[0] === '(' ? hi < 0 : hi <= 0)
}

/** The clause's verdict on a document holding `values` (of field `f`): an OR of ANDs of numeric ranges. */
function clauseMatches(clause: string, fields: Record<string, string>): boolean {
  return clause.slice(1, -1).split(' | ').some((group) => group.slice(1, -1).split(/ (?=@)/).every((term) => {
    const [, field, range] = /^@(\S+?):(\[.*\])$/.exec(term)!
    return fields[field!] !== undefined && inRange(Number(fields[field!]), range!)
  }))
}

test('a range by order keys and boundary matches exactly the documents that have a value on its side', () => {
  const conditions: RangeCondition[] = ['GREATER_THAN', 'GREATER_THAN_OR_EQUAL_TO', 'LESS_THAN', 'LESS_THAN_OR_EQUAL_TO']
  fc.assert(fc.property(fc.array(fc.array(text, { minLength: 1, maxLength: 3 }), { maxLength: 12 }), text, fc.constantFrom(...conditions), (docs, v, condition) => {
    const range = orderRange('name', condition, v)
    if (!range) return // a value the keys cannot tell exactly: expanded into values instead
    const lexicon = [...new Set(docs.flat())]
    const boundary = range.boundary ? lexicon.filter((x) => inLex(x, range.boundary!)) : []
    for (const values of docs) {
      const expected = values.some((x) => {
        const c = compareCodePoints(x, v)
        return condition === 'GREATER_THAN' ? c > 0 : condition === 'GREATER_THAN_OR_EQUAL_TO' ? c >= 0 : condition === 'LESS_THAN' ? c < 0 : c <= 0
      })
      const got = clauseMatches(range.clause, orderKeyFields('name', values)) || values.some((x) => boundary.includes(x))
      assert.is(got, expected, `${condition} ${JSON.stringify(v)} on ${JSON.stringify(values)}`)
    }
  }), { numRuns: 3000 })
})

test('a value with a code point at or past U+FFFE in its first 12 has no exact key: it is expanded instead', () => {
  assert.is(orderRange('name', 'GREATER_THAN', 'ab\u{ffff}c'), null)
  assert.is(orderRange('name', 'GREATER_THAN', 'ab😀'), null)
  assert.ok(orderRange('name', 'GREATER_THAN', 'abcdefghijkl😀'))
})

test.run()
