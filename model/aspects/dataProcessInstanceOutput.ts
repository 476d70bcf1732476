/** What a run wrote: Produces edges (downstream lineage of the run). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { EdgeTo, UrnList } from './common.ts'

export const DataProcessInstanceOutput = Type.Object({
  outputs: UrnList({
    relationship: { name: 'Produces', entityTypes: ['dataset', 'mlModel'], lineage: 'downstream' },
    searchable: { field: 'outputs', type: 'URN' },
  }),
  outputEdges: Type.Optional(Type.Array(EdgeTo({
    relationship: { name: 'DataProcessInstanceProduces', entityTypes: ['dataset', 'mlModel', 'dataProcessInstance'], lineage: 'downstream' },
  }))),
})

export const dataProcessInstanceOutput = defineAspect('dataProcessInstanceOutput', 'com.svc.dataprocess.DataProcessInstanceOutput', DataProcessInstanceOutput)
