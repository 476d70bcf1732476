/**
 * An ML model: description, type, hyper-parameters and metrics, the features it uses (Consumes), its deployments
 * (DeployedTo), groups (MemberOf) and training jobs (TrainedBy).
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal, UrnList } from './common.ts'
import { HyperParameterValueType, MLModelDescription, MLModelLineageInfo, MLNamedValue } from './mlCommon.ts'

export const MLModelProperties = Type.Object({
  ...CustomAndExternal,
  ...MLModelLineageInfo,
  ...MLModelDescription,
  date: Type.Optional(Type.Integer()),
  type: Type.Optional(Type.String({ searchable: { field: 'type', type: 'KEYWORD', queryByDefault: true } })),
  hyperParameters: Type.Optional(Type.Record(Type.String(), HyperParameterValueType)),
  hyperParams: Type.Optional(Type.Array(MLNamedValue)),
  trainingMetrics: Type.Optional(Type.Array(MLNamedValue)),
  onlineMetrics: Type.Optional(Type.Array(MLNamedValue)),
  mlFeatures: Type.Optional(UrnList({ relationship: { name: 'Consumes', entityTypes: ['mlFeature'], lineage: 'upstream' } })),
  tags: Type.Optional(Type.Array(Type.String({ searchable: { field: 'propertyTags', type: 'KEYWORD' } }), { default: [] })),
  deployments: Type.Optional(UrnList({ relationship: { name: 'DeployedTo', entityTypes: ['mlModelDeployment'] } })),
  groups: Type.Optional(UrnList({ relationship: { name: 'MemberOf', entityTypes: ['mlModelGroup'] }, searchable: { field: 'groups', type: 'URN' } })),
})

export const mlModelProperties = defineAspect('mlModelProperties', 'com.svc.ml.metadata.MLModelProperties', MLModelProperties)
