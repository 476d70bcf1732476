/**
 * An ML model: description, type, hyper-parameters and metrics, the features it uses (Consumes), its deployments
 * (DeployedTo), groups (MemberOf) and training jobs (TrainedBy).
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal, TimeStamp, UrnList, VersionTag } from './common.ts'
import { HyperParameterValueType, MLModelLineageInfo, MLNamedValue } from './mlCommon.ts'

export const MLModelProperties = Type.Object({
  ...CustomAndExternal,
  ...MLModelLineageInfo,
  name: Type.Optional(Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  date: Type.Optional(Type.Integer()),
  created: Type.Optional(TimeStamp),
  lastModified: Type.Optional(TimeStamp),
  version: Type.Optional(VersionTag),
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
