/** Which job or flow a run is an instance of (InstanceOf), its parent run (ChildOf) and the runs that triggered it. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const DataProcessInstanceRelationships = Type.Object({
  parentTemplate: Type.Optional(Urn({
    relationship: { name: 'InstanceOf', entityTypes: ['dataJob', 'dataFlow', 'dataset'] },
    searchable: { field: 'parentTemplate', type: 'URN' },
  })),
  parentInstance: Type.Optional(Urn({
    relationship: { name: 'ChildOf', entityTypes: ['dataProcessInstance'] },
    searchable: { field: 'parentInstance', type: 'URN' },
  })),
  upstreamInstances: Type.Array(Urn({
    relationship: { name: 'UpstreamOf', entityTypes: ['dataProcessInstance'] },
    searchable: { field: 'upstream', type: 'URN' },
  })),
})

export const dataProcessInstanceRelationships = defineAspect('dataProcessInstanceRelationships', 'com.svc.dataprocess.DataProcessInstanceRelationships', DataProcessInstanceRelationships)
