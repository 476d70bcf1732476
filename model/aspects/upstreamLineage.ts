/** The datasets a dataset is derived from: each upstream is a DownstreamOf edge; column lineage links schema fields. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, StringMap, Urn } from './common.ts'

export const Upstream = Type.Object({
  auditStamp: Type.Optional(AuditStamp),
  created: Type.Optional(AuditStamp),
  dataset: Urn({
    relationship: { name: 'DownstreamOf', entityTypes: ['dataset'], lineage: 'upstream' },
    searchable: { field: 'upstreams', type: 'URN' },
  }),
  type: Type.Enum(['COPY', 'TRANSFORMED', 'VIEW']),
  properties: Type.Optional(StringMap),
  query: Type.Optional(Urn()),
})

/**
 * Column-level lineage: each downstream field is DownstreamOf each upstream field, as edges between schemaField urns
 * (not from the dataset that carries the aspect), so lineage can be asked of one column.
 */
export const FineGrainedLineage = Type.Object({
  upstreamType: Type.Enum(['FIELD_SET', 'DATASET', 'NONE']),
  upstreams: Type.Optional(Type.Array(Urn())),
  downstreamType: Type.Enum(['FIELD', 'FIELD_SET']),
  downstreams: Type.Optional(Type.Array(Urn())),
  transformOperation: Type.Optional(Type.String()),
  confidenceScore: Type.Optional(Type.Number({ default: 1 })),
  query: Type.Optional(Urn()),
}, { fieldEdges: { name: 'DownstreamOf', from: 'downstreams', to: 'upstreams', lineage: 'upstream' } })

export const UpstreamLineage = Type.Object({
  upstreams: Type.Array(Upstream),
  fineGrainedLineages: Type.Optional(Type.Array(FineGrainedLineage)),
})

export const upstreamLineage = defineAspect('upstreamLineage', 'com.svc.dataset.UpstreamLineage', UpstreamLineage)
