/** A facet's buckets, pure: kept in dictionary mode, yet a plain object to whoever reads, compares or serialises it. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { addTo, bucketsOf, emptyBuckets } from '../../../model/search/buckets.ts'

test('buckets are plain objects: Object\'s prototype, equal to a literal, serialised in the order they were filled', () => {
  const buckets = bucketsOf([['urn:svc:corpuser:b', 3], ['urn:svc:corpuser:a', 1]])
  assert.is(Object.getPrototypeOf(buckets), Object.prototype)
  assert.equal(buckets, { 'urn:svc:corpuser:b': 3, 'urn:svc:corpuser:a': 1 })
  assert.is(JSON.stringify(buckets), '{"urn:svc:corpuser:b":3,"urn:svc:corpuser:a":1}')
  assert.equal({ ...buckets }, buckets)
  assert.equal(Object.keys(emptyBuckets()), [])
})

test('addTo sums a value\'s counts; a value listed twice in bucketsOf keeps its last count', () => {
  const buckets = emptyBuckets()
  addTo(buckets, 'hive', 2)
  addTo(buckets, 'kafka', 1)
  addTo(buckets, 'hive', 5)
  assert.equal(buckets, { hive: 7, kafka: 1 })
  assert.equal(bucketsOf([['x', 1], ['x', 4]]), { x: 4 })
})

test('a key that looks like a number or a prototype member is an ordinary bucket', () => {
  const buckets = bucketsOf([['2024', 1], ['constructor', 2], ['__proto__', 3]])
  addTo(buckets, '__proto__', 1)
  addTo(buckets, 'toString', 1)
  assert.is(buckets['2024'], 1)
  assert.is(buckets.constructor as unknown, 2)
  assert.is(Object.getPrototypeOf(buckets), Object.prototype)
  assert.equal(JSON.parse(JSON.stringify(buckets)), JSON.parse('{"2024":1,"constructor":2,"__proto__":4,"toString":1}'))
})

test.run()
