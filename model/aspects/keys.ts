/**
 * Key aspects: the fields an entity's urn is made of. The order of `keyFields` in model/entities.ts says which
 * urn part fills which field.
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

const KEY = 'com.svc.metadata.key.'
const Part = (searchable?: object) => Type.String({ minLength: 1, ...(searchable ? { searchable } : {}) })

/** Environments a dataset can belong to. */
export const FabricType = Type.Enum(['DEV', 'TEST', 'QA', 'UAT', 'EI', 'PRE', 'STG', 'NON_PROD', 'PROD', 'CORP', 'RVW', 'PRD', 'TST', 'SIT', 'SBX', 'SANDBOX'],
  { searchable: { field: 'origin', type: 'KEYWORD', facet: true } },
)

export const datasetKey = defineAspect('datasetKey', `${KEY}DatasetKey`, Type.Object({
  platform: Urn({ urnOf: 'dataPlatform', searchable: { field: 'platform', type: 'URN', facet: true, facetKey: 'id' } }),
  name: Part({ field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true }),
  origin: FabricType,
}))

export const chartKey = defineAspect('chartKey', `${KEY}ChartKey`, Type.Object({
  dashboardTool: Part({ field: 'tool', type: 'KEYWORD', boost: 4, queryByDefault: true, facet: true }),
  chartId: Part(),
}))

export const dashboardKey = defineAspect('dashboardKey', `${KEY}DashboardKey`, Type.Object({
  dashboardTool: Part({ field: 'tool', type: 'KEYWORD', boost: 4, queryByDefault: true, facet: true }),
  dashboardId: Part(),
}))

export const corpUserKey = defineAspect('corpUserKey', `${KEY}CorpUserKey`, Type.Object({
  username: Part({ field: 'ldap', type: 'TEXT', boost: 2, queryByDefault: true, autocomplete: true }),
}))

export const corpGroupKey = defineAspect('corpGroupKey', `${KEY}CorpGroupKey`, Type.Object({
  name: Part({ field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true }),
}))

export const tagKey = defineAspect('tagKey', `${KEY}TagKey`, Type.Object({
  name: Part({ field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true }),
}))

export const glossaryTermKey = defineAspect('glossaryTermKey', `${KEY}GlossaryTermKey`, Type.Object({
  name: Part({ field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true }),
}))

export const dataPlatformKey = defineAspect('dataPlatformKey', `${KEY}DataPlatformKey`, Type.Object({
  platformName: Part({ field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true }),
}))

const Name = () => Part({ field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true })
const Id = () => Part({ field: 'id', type: 'KEYWORD' })
const PlatformUrn = () => Urn({ urnOf: 'dataPlatform', searchable: { field: 'platform', type: 'URN', facet: true, facetKey: 'id' } })

export const containerKey = defineAspect('containerKey', `${KEY}ContainerKey`, Type.Object({ guid: Id() }))

export const dataFlowKey = defineAspect('dataFlowKey', `${KEY}DataFlowKey`, Type.Object({
  orchestrator: Part({ field: 'orchestrator', type: 'KEYWORD', queryByDefault: true, facet: true }),
  flowId: Name(),
  cluster: Part({ field: 'cluster', type: 'KEYWORD', queryByDefault: true }),
}))

export const dataJobKey = defineAspect('dataJobKey', `${KEY}DataJobKey`, Type.Object({
  flow: Urn({ urnOf: 'dataFlow', searchable: { field: 'dataFlow', type: 'URN' } }),
  jobId: Name(),
}))

export const dataProcessInstanceKey = defineAspect('dataProcessInstanceKey', `${KEY}DataProcessInstanceKey`, Type.Object({ id: Id() }))

export const schemaFieldKey = defineAspect('schemaFieldKey', `${KEY}SchemaFieldKey`, Type.Object({
  parent: Urn({ searchable: { field: 'parent', type: 'URN' } }),
  fieldPath: Part({ field: 'fieldPath', type: 'TEXT', queryByDefault: true }),
}))

export const glossaryNodeKey = defineAspect('glossaryNodeKey', `${KEY}GlossaryNodeKey`, Type.Object({ name: Name() }))

export const assertionKey = defineAspect('assertionKey', `${KEY}AssertionKey`, Type.Object({ assertionId: Id() }))

export const queryKey = defineAspect('queryKey', `${KEY}QueryKey`, Type.Object({ id: Id() }))

export const postKey = defineAspect('postKey', `${KEY}PostKey`, Type.Object({ id: Id() }))

export const domainKey = defineAspect('domainKey', `${KEY}DomainKey`, Type.Object({ id: Id() }))

export const dataProductKey = defineAspect('dataProductKey', `${KEY}DataProductKey`, Type.Object({ id: Id() }))

export const platformResourceKey = defineAspect('platformResourceKey', `${KEY}PlatformResourceKey`, Type.Object({ id: Id() }))

export const dataPlatformInstanceKey = defineAspect('dataPlatformInstanceKey', `${KEY}DataPlatformInstanceKey`, Type.Object({
  platform: PlatformUrn(),
  instance: Name(),
}))

/** Keys of ML features and primary keys: feature namespace, name. */
const MLFeatureKeyFields = () => Type.Object({
  featureNamespace: Part({ field: 'featureNamespace', type: 'TEXT', queryByDefault: true }),
  name: Name(),
})

export const mlFeatureKey = defineAspect('mlFeatureKey', `${KEY}MLFeatureKey`, MLFeatureKeyFields())

export const mlPrimaryKeyKey = defineAspect('mlPrimaryKeyKey', `${KEY}MLPrimaryKeyKey`, MLFeatureKeyFields())

export const mlFeatureTableKey = defineAspect('mlFeatureTableKey', `${KEY}MLFeatureTableKey`, Type.Object({
  platform: Urn({ urnOf: 'dataPlatform', relationship: { name: 'SourcePlatform', entityTypes: ['dataPlatform'] }, searchable: { field: 'platform', type: 'URN', facet: true, facetKey: 'id' } }),
  name: Name(),
}))

/** Keys of ML models, model groups and deployments: platform, name, environment. */
const MLModelKeyFields = () => Type.Object({ platform: PlatformUrn(), name: Name(), origin: FabricType })

export const mlModelKey = defineAspect('mlModelKey', `${KEY}MLModelKey`, MLModelKeyFields())

export const mlModelGroupKey = defineAspect('mlModelGroupKey', `${KEY}MLModelGroupKey`, MLModelKeyFields())

export const mlModelDeploymentKey = defineAspect('mlModelDeploymentKey', `${KEY}MLModelDeploymentKey`, MLModelKeyFields())

export const notebookKey = defineAspect('notebookKey', `${KEY}NotebookKey`, Type.Object({
  notebookTool: Part({ field: 'tool', type: 'KEYWORD', boost: 4, queryByDefault: true, facet: true }),
  notebookId: Part(),
}))

export const structuredPropertyKey = defineAspect('structuredPropertyKey', `${KEY}StructuredPropertyKey`, Type.Object({ id: Id() }))

export const ownershipTypeKey = defineAspect('ownershipTypeKey', `${KEY}OwnershipTypeKey`, Type.Object({ id: Id() }))

export const roleKey = defineAspect('roleKey', `${KEY}RoleKey`, Type.Object({ id: Id() }))

export const incidentKey = defineAspect('incidentKey', `${KEY}IncidentKey`, Type.Object({ id: Id() }))

export const dataContractKey = defineAspect('dataContractKey', `${KEY}DataContractKey`, Type.Object({ id: Id() }))

export const versionSetKey = defineAspect('versionSetKey', `${KEY}VersionSetKey`, Type.Object({
  id: Id(),
  entityType: Part({ field: 'versionedType', type: 'KEYWORD' }),
}))

export const formKey = defineAspect('formKey', `${KEY}FormKey`, Type.Object({ id: Id() }))

export const businessAttributeKey = defineAspect('businessAttributeKey', `${KEY}BusinessAttributeKey`, Type.Object({ id: Id() }))
