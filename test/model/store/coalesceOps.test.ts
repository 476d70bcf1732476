/**
 * Ops of one command on one key join (model/store/ops.ts coalesceOps) only where the result is the same: no op
 * between them names the key, and no LEXLOG reads what the op did. Pure; the apply script runs the joined ops in
 * every other suite.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { unpack } from 'msgpackr'
import { coalesceOps, encodeOps, type Op } from '../../../model/store/ops.ts'

test('an entity\'s aspects, rows and browse entries join into one op per key, in the place of the first', () => {
  const ops: Op[] = [
    ['HSET', '{s0}:a:u', 'k', '1'], ['ZADD', '{s0}:rows', '0', 'u\u0000k'],
    ['HSET', '{s0}:a:u', 'p', '2'], ['ZADD', '{s0}:rows', '0', 'u\u0000p'],
    ['XADD', '{s0}:mcl', '*', 'a', 'k'], ['XADD', '{s0}:mcl', '*', 'a', 'p'],
    ['ZADD', '{s0}:br:e:/a', '0', 'x'], ['ZADD', '{s0}:br:e:/a', '0', 'y'], ['ZADD', '{s0}:br:e:/a', '0', 'z'],
  ]
  assert.equal(coalesceOps(ops), [
    ['HSET', '{s0}:a:u', 'k', '1', 'p', '2'], ['ZADD', '{s0}:rows', '0', 'u\u0000k', '0', 'u\u0000p'],
    ['XADD', '{s0}:mcl', '*', 'a', 'k'], ['XADD', '{s0}:mcl', '*', 'a', 'p'],
    ['ZADD', '{s0}:br:e:/a', '0', 'x', '0', 'y', '0', 'z'],
  ])
  // The ops given are left as they were.
  assert.equal(ops[0], ['HSET', '{s0}:a:u', 'k', '1'])
})

test('an op naming the key in between, another command, or a LEXLOG after either keeps them apart', () => {
  const between: Op[] = [['ZADD', '{s0}:k', '1', 'a'], ['ZREMRANGEBYSCORE', '{s0}:k', '2', '2'], ['ZADD', '{s0}:k', '2', 'b']]
  assert.equal(coalesceOps(between), between)
  const special: Op[] = [['SADD', '{s0}:p', 'u'], ['POST', '{s0}:p', 'u', '{s0}:docs', '{s0}:bm', '1', '1'], ['SADD', '{s0}:p', 'v']]
  assert.equal(coalesceOps(special), special)
  const other: Op[] = [['ZADD', '{s0}:k', '1', 'a'], ['ZREM', '{s0}:k', 'a'], ['ZADD', '{s0}:k', '1', 'b']]
  assert.equal(coalesceOps(other), other)
  const logged: Op[] = [['ZADD', '{s0}:live', '0', 'u'], ['LEXLOG', '{s0}:log', '{s0}:origin', 'urn', 'u', '10'], ['ZADD', '{s0}:live', '0', 'v']]
  assert.equal(coalesceOps(logged), logged)
  const loggedLater: Op[] = [['ZADD', '{s0}:live', '0', 'u'], ['ZADD', '{s0}:live', '0', 'v'], ['LEXLOG', '{s0}:log', '{s0}:origin', 'urn', 'v', '10']]
  assert.equal(coalesceOps(loggedLater), loggedLater)
  const deleted: Op[] = [['HSET', '{s0}:h', 'f', '1'], ['DEL', '{s0}:x', '{s0}:h'], ['HSET', '{s0}:h', 'g', '2']]
  assert.equal(coalesceOps(deleted), deleted)
})

test('encodeOps sends the joined ops, each key once in KEYS', () => {
  const { keys, ops } = encodeOps(['{s0}:m'], [['HSET', '{s0}:a', 'f', '1'], ['ZADD', '{s0}:r', '0', 'x'], ['HSET', '{s0}:a', 'g', '2']])
  assert.equal(keys, ['{s0}:m', '{s0}:a', '{s0}:r'])
  assert.equal(unpack(ops), ['2', 'HSET', '5', 'kvvvv', '2', 'f', '1', 'g', '2', 'ZADD', '3', 'kvv', '3', '0', 'x'])
})

test('encodeOps packs a lone surrogate as the U+FFFD its UTF-8 argument would carry, and a missing value empty', () => {
  const { ops } = encodeOps(['{s0}:m'], [['HSET', '{s0}:a', 'f\ud800', 'caf\u00e9 \ud83d\ude00'], ['HSET', '{s0}:b', 'g', undefined as unknown as string]])
  assert.equal(unpack(ops), ['2', 'HSET', '3', 'kvv', '2', 'f\ufffd', 'caf\u00e9 \ud83d\ude00', 'HSET', '3', 'kvv', '3', 'g', ''])
})

test.run()
