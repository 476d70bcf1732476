/** A deployment (endpoint) of an ML model: description, version and serving status. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal, VersionTag } from './common.ts'

export const DeploymentStatus = Type.Enum(['OUT_OF_SERVICE', 'CREATING', 'UPDATING', 'ROLLING_BACK', 'IN_SERVICE', 'DELETING', 'FAILED', 'UNKNOWN'],
  { searchable: { field: 'deploymentStatus', type: 'KEYWORD', facet: true } })

export const MLModelDeploymentProperties = Type.Object({
  ...CustomAndExternal,
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  createdAt: Type.Optional(Type.Integer()),
  version: Type.Optional(VersionTag),
  status: Type.Optional(DeploymentStatus),
})

export const mlModelDeploymentProperties = defineAspect('mlModelDeploymentProperties', 'com.svc.ml.metadata.MLModelDeploymentProperties', MLModelDeploymentProperties)
