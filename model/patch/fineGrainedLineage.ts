/**
 * Upstream's patch form of column-level lineage (upstreamLineage.fineGrainedLineages): a lineage is keyed by its
 * transform operation, its one downstream field, its query and each upstream field, so patches read
 * `/fineGrainedLineages/<operation>/<downstream urn>/<query urn or NONE>/<upstream urn>` with value
 * `{confidenceScore}`. Rebuilt lineages take the lowest confidence score of their upstreams, as upstream's do.
 */
import { fail } from '../errors.ts'

const NONE = 'NONE'
type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The keyed form of a fineGrainedLineages array. */
export function fineGrainedToMap(lineages: unknown): Json {
  const map: Json = {}
  if (!Array.isArray(lineages)) return map
  for (const lineage of lineages as Json[]) {
    const downstreams = lineage.downstreams as string[] | undefined
    if (!downstreams || downstreams.length !== 1) {
      throw fail('UNSUPPORTED_CHANGE', 'upstreamLineage: a fine-grained lineage without exactly one downstream cannot be patched (as upstream)',
        [{ path: 'fineGrainedLineages', message: `${downstreams?.length ?? 0} downstreams` }])
    }
    const operation = String(lineage.transformOperation ?? NONE)
    const query = String(lineage.query ?? NONE)
    const byDownstream = ((map[operation] ??= {}) as Json)
    const byQuery = ((byDownstream[downstreams[0]!] ??= {}) as Json)
    const upstreams = ((byQuery[query] ??= {}) as Json)
    for (const upstream of (lineage.upstreams as string[] | undefined) ?? []) {
      upstreams[upstream] = {
        confidenceScore: lineage.confidenceScore ?? 1,
        upstreamType: lineage.upstreamType ?? 'FIELD_SET',
        downstreamType: lineage.downstreamType ?? 'FIELD',
      }
    }
  }
  return map
}

/** The fineGrainedLineages array of a keyed form (an array, as set by a whole-field patch, stays as it is). */
export function fineGrainedFromMap(map: unknown): unknown {
  if (!isObject(map)) return map
  const lineages: Json[] = []
  for (const [operation, byDownstream] of Object.entries(map)) {
    for (const [downstream, byQuery] of Object.entries(isObject(byDownstream) ? byDownstream : {})) {
      for (const [query, upstreams] of Object.entries(isObject(byQuery) ? byQuery : {})) {
        const entries = Object.entries(isObject(upstreams) ? upstreams : {})
        if (entries.length === 0) continue
        let confidenceScore = 1
        let upstreamType = 'FIELD_SET'
        let downstreamType = 'FIELD'
        for (const [, detail] of entries) {
          if (!isObject(detail)) continue
          if (typeof detail.confidenceScore === 'number') confidenceScore = Math.min(confidenceScore, detail.confidenceScore)
          if (typeof detail.upstreamType === 'string') upstreamType = detail.upstreamType
          if (typeof detail.downstreamType === 'string') downstreamType = detail.downstreamType
        }
        lineages.push({
          upstreamType, upstreams: entries.map(([u]) => u), downstreamType, downstreams: [downstream],
          ...(operation !== NONE ? { transformOperation: operation } : {}),
          confidenceScore,
          ...(query !== NONE ? { query } : {}),
        })
      }
    }
  }
  return lineages
}
