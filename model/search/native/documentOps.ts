/**
 * Native engine: the Redis ops that move the index from one document of an entity to the next (or to none).
 * Keys live under `ix:<type>:` in the entity's shard (see Keys.nativeIndex):
 *   live:           sorted set, score 0: urns of searchable (live) entities, in urn order
 *   tok:<token>     sorted set: urn -> minus the relevance of the token for it
 *   toks:           sorted set (lexicographic): every token with a posting (prefix expansion)
 *   kw:<f>\0<v>     set: urns whose field f has the value v (lower-cased), or a urn whose id part is v
 *   vals:<f>        sorted set (lexicographic): the lower-cased values of field f with a posting (facets, ranges)
 *   valo:<f>        hash: lower-cased value -> original spelling, for facet fields (facet buckets show it)
 *   num:<f>         sorted set: urn -> number (COUNT fields)
 *   ac:             sorted set (lexicographic): autocomplete entries `text\0original\0urn`
 *   fc:<token>      string: cached facet counts of the token's posting (search-0.lua); dropped by any change
 *                   to the posting or to the facet values of a document in it
 * Every op is idempotent and lexicons shrink when a posting empties (LINK/UNLINK), so replaying a document's
 * removal and addition (restore indices) heals whatever was lost.
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
  const shard = keys.shardOf(urn)
  const ix = (kind: string, rest = '') => keys.nativeIndex(shard, T, kind, rest)
  const old = nativeEntries(registry, entity, before)
  const now = nativeEntries(registry, entity, after)
  const ops: Op[] = []

  if (after) ops.push(['HSET', keys.doc(T, urn), 'urn', urn, 'd', JSON.stringify(after.fields)])
  else if (before) ops.push(['DEL', keys.doc(T, urn)])
  if (after && !before) ops.push(['ZADD', ix('live'), '0', urn])
  if (before && !after) ops.push(['ZREM', ix('live'), urn])

  for (const [token] of old.tokens) {
    if (!now.tokens.has(token)) ops.push(['ZUNLINK', ix('tok', token), urn, ix('toks'), token])
  }
  for (const [token, score] of now.tokens) {
    // Minus the relevance: ascending order is then best first, ties in urn order (search-0.lua).
    if (old.tokens.get(token) !== score) ops.push(['ZLINK', ix('tok', token), String(-score), urn, ix('toks'), token])
  }
  for (const kw of old.keywords.keys()) {
    if (now.keywords.has(kw)) continue
    const [field, lower] = kw.split(SEP) as [string, string]
    ops.push(['UNLINK', ix('kw', kw), urn, ix('vals', field), lower, ix('valo', field)])
  }
  const facets = new Set([...registry.searchFields(entity).values()].filter((f) => f.facet).map((f) => f.name))
  for (const [kw, original] of now.keywords) {
    if (old.keywords.get(kw) === original) continue
    const [field, lower] = kw.split(SEP) as [string, string]
    // Facet buckets show original spellings; other fields need none.
    ops.push(facets.has(field) ? ['LINK', ix('kw', kw), urn, ix('vals', field), lower, ix('valo', field), original] : ['LINK', ix('kw', kw), urn, ix('vals', field), lower])
  }
  // Facet caches of the tokens this change touches, or of all the document's tokens when its facet values change.
  const facetChanged = [...old.keywords.keys(), ...now.keywords.keys()]
    .some((kw) => facets.has(kw.split(SEP)[0]!) && old.keywords.has(kw) !== now.keywords.has(kw))
  const stale = new Set<string>()
  for (const token of new Set([...old.tokens.keys(), ...now.tokens.keys()])) {
    if (facetChanged || old.tokens.has(token) !== now.tokens.has(token)) stale.add(token)
  }
  if (stale.size > 0) ops.push(['DEL', ...[...stale].map((t) => ix('fc', t))])
  for (const alias of old.aliases) if (!now.aliases.has(alias)) ops.push(['SREM', ix('kw', alias), urn])
  for (const alias of now.aliases) if (!old.aliases.has(alias)) ops.push(['SADD', ix('kw', alias), urn])
  for (const [field] of old.numbers) if (!now.numbers.has(field)) ops.push(['ZREM', ix('num', field), urn])
  for (const [field, n] of now.numbers) if (old.numbers.get(field) !== n) ops.push(['ZADD', ix('num', field), String(n), urn])
  for (const s of old.suggestions) if (!now.suggestions.has(s)) ops.push(['ZREM', ix('ac'), s])
  for (const s of now.suggestions) if (!old.suggestions.has(s)) ops.push(['ZADD', ix('ac'), '0', s])
  return ops
}
