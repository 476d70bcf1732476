/**
 * Native engine: the Redis ops that move the index from one document of an entity to the next (or to none).
 * Keys live under `ix:<type>:` in the entity's shard (see Keys.nativeIndex):
 *   live:           sorted set, score 0: urns of searchable (live) entities, in urn order
 *   words:          hash: document number -> `urn \0 words` (wordCopy.ts encodeWords: every token with minus its
 *                   relevance): the gateways copy it (indexMirror.ts) and answer every query of words from the
 *                   copy (wordQuery.ts), so no token has a posting here
 *   kw:<f>\0<v>     urns whose field f has the value v (lower-cased): a set while small, a sorted set (score
 *                   0, urn order) from 64 members on (KLINK: a filter on one value pages through it as it is); for
 *                   every field but a paired one (indexMirror.ts pairedField: names, descriptions, browse
 *                   paths), whose conditions the gateways' copies of its pairs answer, read from the stored
 *                   documents (`doc:`) and kept by PAIRLOG
 *   ids:<f>         sorted set (lexicographic), for a URN field: `id \0 value` of each urn value of its lexicon
 *                   (IDLINK), so that `tags:pii` finds urn:svc:tag:pii's posting (filter.lua EQUAL_OR_ID; the
 *                   gateways' copies find it by the facet values' ids, localFilter.ts): a value's id has no posting
 *                   of its own, and this list changes only when a value enters or leaves the lexicon
 *   vals:<f>        sorted set (lexicographic): the lower-cased values of field f with a posting (facets, ranges)
 *                   (none for a paired field)
 *   valo:<f>        hash: lower-cased value -> original spelling, for facet fields (facet buckets show it)
 *   num:<f>         sorted set: urn -> number (COUNT fields)
 *   docs:           hash: urn -> `<document number>|<facet line>` (facetLine in entries.ts); numbers of removed
 *                   documents wait in `free:` (a set) for reuse, new ones come from `next:` (a counter)
 *   lb:             bitmap: bit n set when document n is live
 *   bm:kw:<f>\0<v>  bitmaps of postings (bit = document number): every posting of a facet field, and any other
 *                   posting once it has `bitmapMin` members (NATIVE_BITMAP_MIN) (a large result's bitmap is
 *                   combined from them with BITOP, and its facets counted by the gateway)
 *   fcnt:<f>        sorted set: lower-cased value -> number of documents with it (facet fields; the facets of a
 *                   match-all)
 *   log:            stream, the index's change log: every value that entered or left a `vals:` lexicon and every
 *                   urn that entered or left `live:` (LEXLOG), every value a document got or lost in a paired
 *                   field (PAIRLOG: names, descriptions, browse paths, whose copies hold urns), every
 *                   document's words when they change (WORDLOG, which keeps them in `words:` too), every
 *                   document number's new facet line (DOC) or its end (UNDOC), an apply's changes in one
 *                   entry, trimmed to about logLength entries: indexMirror.ts follows it; `logorigin:` holds the
 *                   id of its first entry (a log begun again has another)
 * Every op is idempotent and lexicons shrink when a posting empties (KLINK/KUNLINK), so replaying a document's
 * removal and addition (restore indices) heals whatever was lost; a restated document whose number stands logs no
 * pairs (the copies read them from its stored document, which the restatement rewrites).
 */
import type { SearchDocument } from '../../derive/searchDocument.ts'
import type { EntitySpec } from '../../entities.ts'
import type { Registry } from '../../registry.ts'
import type { Keys } from '../../store/keys.ts'
import type { Op } from '../../store/ops.ts'
import { facetLine, idEntry, nativeEntries } from './entries.ts'
import { changeLog, lexiconLogOp, pairedField, pairLogOp, undocOp, URN_LEXICON, wordLogOp } from './indexMirror.ts'
import { encodeWords } from './wordCopy.ts'

const SEP = '\u0000'

/** Ops for the native index and the stored document when an entity's document goes from `before` to `after`. */
export function nativeDocumentOps(
  registry: Registry, keys: Keys, entity: EntitySpec, urn: string, before: SearchDocument | null, after: SearchDocument | null,
  bitmapMin: number,
): Op[] {
  const T = entity.name
  const shard = keys.shardOf(urn)
  const ix = (kind: string, rest = '') => keys.nativeIndex(shard, T, kind, rest)
  const old = nativeEntries(registry, entity, before)
  const now = nativeEntries(registry, entity, after)
  const ops: Op[] = []
  const docs = ix('docs')
  const searchFields = registry.searchFields(entity)
  const fields = [...searchFields.values()]
  const facets = new Set(fields.filter((f) => f.facet).map((f) => f.name))
  const paired = new Set(fields.filter(pairedField).map((f) => f.name))
  // After a KLINK or KUNLINK of a URN field's value: its entry in the field's ids, when the value entered or left the
  // lexicon (apply.lua IDLINK).
  const idLinked = (field: string, lower: string): Op[] => {
    const entry = searchFields.get(field)?.type === 'URN' ? idEntry(lower) : undefined
    return entry ? [['IDLINK', ix('ids', field), entry]] : []
  }
  // The document's number comes first (every bitmap op below reads it) and goes last.
  const { log, origin, maxlen } = changeLog(keys, shard, T)
  if (after) ops.push(['DOC', docs, ix('next'), ix('free'), ix('lb'), urn, facetLine(facets, now), log, origin, maxlen])
  // The stored document is its fields (`d`) alone: its urn is in its key's name, and in its fields (a `urn` field
  // beside them, which nothing read, cost ~90 bytes a document).
  if (after) ops.push(['HSET', keys.doc(T, urn), 'd', JSON.stringify(after.fields)])
  else if (before) ops.push(['DEL', keys.doc(T, urn)])
  // A value entering or leaving a lexicon is logged for the copies that CONTAIN and END_WITH read (indexMirror.ts).
  const logged = (field: string, value: string): Op => lexiconLogOp(keys, shard, T, field, value)
  // A paired field's value (indexMirror.ts pairedField: names, descriptions, browse paths) has no posting or
  // lexicon here: every condition on it is answered by the gateways' copies of the pairs, which are read from the
  // stored documents (`doc:`) and kept by this log. A change of an existing document's value is logged; a document
  // without one before (new, or restated: restore indices) logs its values when this apply gives it its number,
  // else its pairs stand.
  const pairLogged = (field: string, value: string, present: boolean, original?: string): Op =>
    pairLogOp(keys, shard, T, field, value, urn, present, before !== null, original)
  if (after && !before) ops.push(['ZADD', ix('live'), '0', urn], logged(URN_LEXICON, urn))
  if (before && !after) ops.push(['ZREM', ix('live'), urn], logged(URN_LEXICON, urn))

  // After a LINK or UNLINK of urn: its bit in the posting's bitmap (`bit` 1 or 0).
  const post = (posting: string, bitmap: string, threshold: number, bit: '0' | '1'): Op => ['POST', posting, urn, docs, bitmap, String(threshold), bit]
  // The document's words are kept whole by its number (`words:`) and logged for the gateways' copies (wordCopy.ts),
  // which answer every query of words: there is no posting per word in Redis. A removed document's are dropped by
  // UNDOC.
  if (after && !sameTokens(old.tokens, now.tokens)) ops.push(wordLogOp(keys, shard, T, urn, encodeWords(now.tokens)))
  const keywordOps = (kw: string, bit: '0' | '1'): Op[] => {
    const [field, lower] = kw.split(SEP) as [string, string]
    const posting = ix('kw', kw)
    const bitmap = post(posting, ix('bm', `kw:${kw}`), facets.has(field) ? 1 : bitmapMin, bit)
    return facets.has(field) ? [bitmap, ['TALLY', posting, ix('fcnt', field), lower]] : [bitmap]
  }
  for (const kw of old.keywords.keys()) {
    if (now.keywords.has(kw)) continue
    const [field, lower] = kw.split(SEP) as [string, string]
    if (paired.has(field)) ops.push(pairLogged(field, lower, false))
    else ops.push(['KUNLINK', ix('kw', kw), urn, ix('vals', field), lower, ix('valo', field)], ...idLinked(field, lower), logged(field, lower), ...keywordOps(kw, '0'))
  }
  for (const [kw, original] of now.keywords) {
    if (old.keywords.get(kw) === original) continue
    const [field, lower] = kw.split(SEP) as [string, string]
    // A paired field's new value, or its new spelling (the copies keep it for autocomplete).
    if (paired.has(field)) {
      ops.push(pairLogged(field, lower, true, original))
      continue
    }
    // Facet buckets show original spellings; other fields need none.
    ops.push(facets.has(field) ? ['KLINK', ix('kw', kw), urn, ix('vals', field), lower, ix('valo', field), original] : ['KLINK', ix('kw', kw), urn, ix('vals', field), lower], ...idLinked(field, lower), logged(field, lower))
    if (!old.keywords.has(kw)) ops.push(...keywordOps(kw, '1'))
  }
  for (const [field] of old.numbers) if (!now.numbers.has(field)) ops.push(['ZREM', ix('num', field), urn])
  for (const [field, n] of now.numbers) if (old.numbers.get(field) !== n) ops.push(['ZADD', ix('num', field), String(n), urn])
  if (before && !after) ops.push(undocOp(keys, shard, T, urn))
  return ops
}

function sameTokens(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  if (a.size !== b.size) return false
  for (const [token, score] of a) if (b.get(token) !== score) return false
  return true
}
