/** What a run read: Consumes edges (upstream lineage of the run). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { EdgeTo, UrnList } from './common.ts'

export const DataProcessInstanceInput = Type.Object({
  inputs: UrnList({
    relationship: { name: 'Consumes', entityTypes: ['dataset', 'mlModel'], lineage: 'upstream' },
    searchable: { field: 'inputs', type: 'URN' },
  }),
  inputEdges: Type.Optional(Type.Array(EdgeTo({
    relationship: { name: 'DataProcessInstanceConsumes', entityTypes: ['dataset', 'mlModel', 'dataProcessInstance'], lineage: 'upstream' },
  }))),
})

export const dataProcessInstanceInput = defineAspect('dataProcessInstanceInput', 'com.svc.dataprocess.DataProcessInstanceInput', DataProcessInstanceInput)
