/**
 * Marks on numbers that no use has to clear (model/search/native/stampedMarks.ts), pure: a use begins with nothing
 * marked whatever the use before marked, marks grow to the limit asked, and uses taken together are apart.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { StampedMarks, withMarks } from '../../../model/search/native/stampedMarks.ts'

test('a use begins with nothing marked, whatever the one before marked', () => {
  const marks = new StampedMarks().begin(10)
  for (const n of [0, 3, 9]) marks.mark(n)
  assert.equal([...Array(10).keys()].filter((n) => marks.has(n)), [0, 3, 9])
  marks.begin(10)
  assert.equal([...Array(10).keys()].filter((n) => marks.has(n)), [])
})

test('a use over more numbers than the one before marks all of them', () => {
  const marks = new StampedMarks().begin(4)
  marks.mark(2)
  marks.begin(5000)
  marks.mark(4999)
  marks.mark(2)
  assert.ok(marks.has(4999) && marks.has(2) && !marks.has(3))
})

test('withMarks gives each limit its own marks, and nested uses other ones', () => {
  const seen = withMarks([8, 8], ([a, b]) => {
    a!.mark(1)
    b!.mark(2)
    const inner = withMarks([8], ([c]) => {
      assert.ok(!c!.has(1) && !c!.has(2))
      c!.mark(1)
      return c
    })
    assert.is.not(inner, a)
    assert.is.not(inner, b)
    return [a!.has(1), a!.has(2), b!.has(1), b!.has(2)]
  })
  assert.equal(seen, [true, false, false, true])
  // Taken again, they begin empty.
  withMarks([8, 8, 8], (all) => { for (const m of all) for (let n = 0; n < 8; n++) assert.ok(!m.has(n)) })
})

test('marks taken by a use that threw are free and empty for the next', () => {
  assert.throws(() => withMarks([4], ([m]) => { m!.mark(3); throw new Error('query failed') }), /query failed/)
  withMarks([4], ([m]) => assert.ok(!m!.has(3)))
})

test.run()
