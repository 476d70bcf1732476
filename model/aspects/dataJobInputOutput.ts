/**
 * What a job reads and writes: input datasets are Consumes edges (upstream), output datasets Produces edges
 * (downstream), input jobs DownstreamOf edges, so lineage walks dataset -> job -> dataset. Its fine-grained lineage
 * links schema fields directly (see upstreamLineage.ts).
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { EdgeTo, UrnList } from './common.ts'
import { FineGrainedLineage } from './upstreamLineage.ts'

const consumes = { relationship: { name: 'Consumes', entityTypes: ['dataset'], lineage: 'upstream' as const }, searchable: { field: 'inputs', type: 'URN' as const } }
const produces = { relationship: { name: 'Produces', entityTypes: ['dataset'], lineage: 'downstream' as const }, searchable: { field: 'outputs', type: 'URN' as const } }
const afterJob = { relationship: { name: 'DownstreamOf', entityTypes: ['dataJob'], lineage: 'upstream' as const } }

export const DataJobInputOutput = Type.Object({
  inputDatasets: UrnList(consumes),
  inputDatasetEdges: Type.Optional(Type.Array(EdgeTo(consumes))),
  outputDatasets: UrnList(produces),
  outputDatasetEdges: Type.Optional(Type.Array(EdgeTo(produces))),
  inputDatajobs: Type.Optional(UrnList(afterJob)),
  inputDatajobEdges: Type.Optional(Type.Array(EdgeTo(afterJob))),
  inputDatasetFields: Type.Optional(UrnList({
    relationship: { name: 'Consumes', entityTypes: ['schemaField'] }, searchable: { field: 'inputFields', type: 'URN' },
  })),
  outputDatasetFields: Type.Optional(UrnList({
    relationship: { name: 'Produces', entityTypes: ['schemaField'] }, searchable: { field: 'outputFields', type: 'URN' },
  })),
  fineGrainedLineages: Type.Optional(Type.Array(FineGrainedLineage)),
})

export const dataJobInputOutput = defineAspect('dataJobInputOutput', 'com.svc.datajob.DataJobInputOutput', DataJobInputOutput)
