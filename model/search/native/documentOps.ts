/**
 * Native engine: the Redis ops that move the index from one document of an entity to the next (or to none).
 * Keys live under `ix:<type>:` (see Keys.nativeIndex):
 *   live:           sorted set, score 0: urns of searchable (live) entities, in urn order
 *   tok:<token>     sorted set: urn -> relevance of the token for it
 *   toks: / tokn:   sorted set (lexicographic) / hash of counts: every indexed token (prefix expansion)
 *   kw:<f>\0<v>     set: urns whose field f has the value v (lower-cased)
 *   vals:<f> / valn:<f>  sorted set (lexicographic) / counts: distinct values of field f (`lower\0original`)
 *   num:<f>         sorted set: urn -> number (COUNT fields)
 *   ac:             sorted set (lexicographic): autocomplete entries `text\0original\0urn`
 */
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import { nativeEntries } from './entries.ts'

const SEP = '\u0000'

/** Ops for the native index and the stored document when an entity's document goes from `before` to `after`. */
export function nativeDocumentOps(
  registry: Registry, keys: Keys, entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null,
): Op[] {
  const T = entity.name
  const ix = (kind: string, rest = '') => keys.nativeIndex(T, kind, rest)
  const old = nativeEntries(registry, entity, before)
  const now = nativeEntries(registry, entity, after)
  const ops: Op[] = []

  if (after) ops.push(['HSET', keys.doc(T, urn), 'urn', urn, 'd', JSON.stringify(after.fields)])
  else if (before) ops.push(['DEL', keys.doc(T, urn)])
  if (after && !before) ops.push(['ZADD', ix('live'), '0', urn])
  if (before && !after) ops.push(['ZREM', ix('live'), urn])

  for (const [token] of old.tokens) {
    if (now.tokens.has(token)) continue
    ops.push(['ZREM', ix('tok', token), urn], ['REFDEC', ix('tokn'), token, ix('toks')])
  }
  for (const [token, score] of now.tokens) {
    const previous = old.tokens.get(token)
    if (previous === score) continue
    ops.push(['ZADD', ix('tok', token), String(score), urn])
    if (previous === undefined) ops.push(['REFINC', ix('tokn'), token, ix('toks')])
  }
  for (const kw of old.keywords) if (!now.keywords.has(kw)) ops.push(['SREM', ix('kw', kw), urn])
  for (const kw of now.keywords) if (!old.keywords.has(kw)) ops.push(['SADD', ix('kw', kw), urn])
  for (const v of old.values) {
    if (now.values.has(v)) continue
    const [field, ...rest] = v.split(SEP)
    ops.push(['REFDEC', ix('valn', field), rest.join(SEP), ix('vals', field)])
  }
  for (const v of now.values) {
    if (old.values.has(v)) continue
    const [field, ...rest] = v.split(SEP)
    ops.push(['REFINC', ix('valn', field), rest.join(SEP), ix('vals', field)])
  }
  for (const [field] of old.numbers) if (!now.numbers.has(field)) ops.push(['ZREM', ix('num', field), urn])
  for (const [field, n] of now.numbers) if (old.numbers.get(field) !== n) ops.push(['ZADD', ix('num', field), String(n), urn])
  for (const s of old.suggestions) if (!now.suggestions.has(s)) ops.push(['ZREM', ix('ac'), s])
  for (const s of now.suggestions) if (!old.suggestions.has(s)) ops.push(['ZADD', ix('ac'), '0', s])
  return ops
}
