/** Redis glob patterns tested in the client (model/store/glob.ts), pure: the same keys as Redis's MATCH. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { commonPrefix, globPrefix, globToRegExp } from '../../../model/store/glob.ts'

const matches = (pattern: string, key: string) => globToRegExp(pattern).test(key)

test('* and ? match any run and one character, anywhere', () => {
  assert.ok(matches('svc:{*}:ix:*', 'svc:{s0}:ix:dataset:w:orders'))
  assert.ok(matches('svc:{*}:ix:*', 'svc:{s12.3}:ix:'))
  assert.not.ok(matches('svc:{*}:ix:*', 'svc:{s0}:doc:dataset:x'))
  assert.not.ok(matches('svc:{*}:ix:*', 'other:svc:{s0}:ix:a'))
  assert.ok(matches('a?c', 'abc'))
  assert.not.ok(matches('a?c', 'ac'))
  assert.ok(matches('a*', 'a\nb'), 'a run may hold any character')
})

test('classes, negated classes and ranges', () => {
  assert.ok(matches('{*}:idx:*:s[vn]:*', '{s0}:idx:dataset:sv:name'))
  assert.ok(matches('{*}:idx:*:s[vn]:*', '{s0}:idx:dataset:sn:name'))
  assert.not.ok(matches('{*}:idx:*:s[vn]:*', '{s0}:idx:dataset:sx:name'))
  assert.ok(matches('k[^a]', 'kb'))
  assert.not.ok(matches('k[^a]', 'ka'))
  assert.ok(matches('k[!a]', 'kb'))
  assert.ok(matches('k[a-c]', 'kb'))
  assert.not.ok(matches('k[a-c]', 'kd'))
})

test('regular expression characters and escapes are literal', () => {
  assert.ok(matches('a.b(c)+$', 'a.b(c)+$'))
  assert.not.ok(matches('a.b', 'axb'))
  assert.ok(matches('a\\*b', 'a*b'))
  assert.not.ok(matches('a\\*b', 'axb'))
  assert.ok(matches('a[b', 'a[b'), 'an unclosed class is a literal bracket')
})

test('the literal prefix of patterns, and what several share', () => {
  assert.is(globPrefix('svc:{*}:ix:*'), 'svc:{')
  assert.is(globPrefix('a\\*b*'), 'a*b')
  assert.is(globPrefix('k[ab]'), 'k')
  assert.is(commonPrefix(['svc:{', 'svc:{', 'svc:x']), 'svc:')
  assert.is(commonPrefix(['abc']), 'abc')
  assert.is(commonPrefix([]), '')
})

test.run()
