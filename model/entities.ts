/**
 * The built-in entity types: their key aspect, how urn parts map to key fields, which aspects they carry, their
 * snapshot record name, and the aspects created with defaults on first write. Pure data; model/registry.ts serves it.
 */

/** An aspect created on an entity's first write when the write did not carry it. */
export interface DefaultAspect {
  aspect: string
  /** Value template: strings may hold `{keyField}`, `{keyField:id}` (urn id part), `{keyField:path}` (`.` as `/`). */
  template: unknown
  /** Lower-case every string of the result (browse paths are). */
  lowercase?: boolean
}

export interface EntitySpec {
  /** Entity name, as in urns and `entityType` (matched case-insensitively). */
  name: string
  keyAspect: string
  /** Key fields in urn order: one field is `urn:svc:<name>:<id>`, several are `urn:svc:<name>:(<a>,<b>,...)`. */
  keyFields: string[]
  /** Non-key aspects, in snapshot order (timeseries ones included; the registry knows which they are). */
  aspects: string[]
  /** Fully qualified snapshot record name, for the legacy snapshot routes. */
  snapshot: string
  defaults?: DefaultAspect[]
  /** Aspects the legacy snapshot read also shows as direct fields of the snapshot (GlossaryTermSnapshot). */
  snapshotFields?: string[]
}

const SNAPSHOT = 'com.svc.metadata.snapshot.'
const COMMON = ['ownership', 'status', 'globalTags', 'glossaryTerms', 'institutionalMemory', 'browsePaths',
  'dataPlatformInstance', 'container', 'subTypes', 'domains', 'browsePathsV2', 'deprecation', 'structuredProperties', 'testResults']
/** The aspects every ML asset carries besides its own. */
const ML_COMMON = ['ownership', 'status', 'globalTags', 'glossaryTerms', 'institutionalMemory', 'browsePaths', 'browsePathsV2',
  'dataPlatformInstance', 'domains', 'deprecation', 'container', 'subTypes', 'structuredProperties', 'testResults']
/** The platform of an entity whose key holds a platform urn. */
const PLATFORM_OF_KEY: DefaultAspect = { aspect: 'dataPlatformInstance', template: { platform: '{platform}' } }
/** Browse path `/<env>/<platform>/<name>` of an entity keyed by platform, name and origin (ML models, groups, deployments). */
const ML_BROWSE: DefaultAspect = { aspect: 'browsePaths', template: { paths: ['/{origin}/{platform:id}/{name}'] }, lowercase: true }

export const BUILTIN_ENTITIES: readonly EntitySpec[] = [
  {
    name: 'dataset',
    keyAspect: 'datasetKey',
    keyFields: ['platform', 'name', 'origin'],
    snapshot: `${SNAPSHOT}DatasetSnapshot`,
    aspects: ['datasetProperties', 'editableDatasetProperties', 'schemaMetadata', 'editableSchemaMetadata',
      'upstreamLineage', 'viewProperties', 'embed', 'siblings', 'datasetDeprecation', 'versionProperties', ...COMMON,
      'datasetProfile', 'datasetUsageStatistics', 'operation'],
    defaults: [
      { aspect: 'browsePaths', template: { paths: ['/{origin}/{platform:id}/{name:path}'] }, lowercase: true },
      { aspect: 'dataPlatformInstance', template: { platform: '{platform}' } },
    ],
  },
  {
    name: 'chart',
    keyAspect: 'chartKey',
    keyFields: ['dashboardTool', 'chartId'],
    snapshot: `${SNAPSHOT}ChartSnapshot`,
    aspects: ['chartInfo', 'editableChartProperties', 'chartQuery', 'inputFields', 'embed', ...COMMON, 'chartUsageStatistics'],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{dashboardTool}/{chartId}'] }, lowercase: true }],
  },
  {
    name: 'dashboard',
    keyAspect: 'dashboardKey',
    keyFields: ['dashboardTool', 'dashboardId'],
    snapshot: `${SNAPSHOT}DashboardSnapshot`,
    aspects: ['dashboardInfo', 'editableDashboardProperties', 'inputFields', 'embed', ...COMMON, 'dashboardUsageStatistics'],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{dashboardTool}/{dashboardId}'] }, lowercase: true }],
  },
  {
    name: 'corpuser',
    keyAspect: 'corpUserKey',
    keyFields: ['username'],
    snapshot: `${SNAPSHOT}CorpUserSnapshot`,
    aspects: ['corpUserInfo', 'corpUserEditableInfo', 'corpUserStatus', 'groupMembership', 'nativeGroupMembership', 'origin',
      'globalTags', 'status', 'structuredProperties', 'testResults'],
  },
  {
    name: 'corpGroup',
    keyAspect: 'corpGroupKey',
    keyFields: ['name'],
    snapshot: `${SNAPSHOT}CorpGroupSnapshot`,
    aspects: ['corpGroupInfo', 'corpGroupEditableInfo', 'origin', 'globalTags', 'ownership', 'status', 'structuredProperties', 'testResults'],
  },
  {
    name: 'tag',
    keyAspect: 'tagKey',
    keyFields: ['name'],
    snapshot: `${SNAPSHOT}TagSnapshot`,
    aspects: ['tagProperties', 'ownership', 'deprecation', 'status', 'testResults'],
  },
  {
    name: 'glossaryTerm',
    keyAspect: 'glossaryTermKey',
    keyFields: ['name'],
    snapshot: `${SNAPSHOT}GlossaryTermSnapshot`,
    aspects: ['glossaryTermInfo', 'glossaryRelatedTerms', 'ownership', 'institutionalMemory', 'domains', 'deprecation', 'status', 'browsePaths',
      'structuredProperties', 'testResults'],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{name:path}'] }, lowercase: true }],
    snapshotFields: ['ownership', 'glossaryTermInfo'],
  },
  {
    name: 'dataPlatform',
    keyAspect: 'dataPlatformKey',
    keyFields: ['platformName'],
    snapshot: `${SNAPSHOT}DataPlatformSnapshot`,
    aspects: ['dataPlatformInfo'],
  },
  {
    name: 'container',
    keyAspect: 'containerKey',
    keyFields: ['guid'],
    snapshot: `${SNAPSHOT}ContainerSnapshot`,
    aspects: ['containerProperties', 'editableContainerProperties', 'dataPlatformInstance', 'subTypes', 'ownership', 'container',
      'globalTags', 'glossaryTerms', 'institutionalMemory', 'browsePaths', 'status', 'domains', 'browsePathsV2', 'deprecation',
      'structuredProperties', 'testResults'],
  },
  {
    name: 'dataFlow',
    keyAspect: 'dataFlowKey',
    keyFields: ['orchestrator', 'flowId', 'cluster'],
    snapshot: `${SNAPSHOT}DataFlowSnapshot`,
    aspects: ['dataFlowInfo', 'editableDataFlowProperties', 'versionInfo', ...COMMON],
    defaults: [
      { aspect: 'browsePaths', template: { paths: ['/{orchestrator}/{cluster}/{flowId}'] }, lowercase: true },
      { aspect: 'dataPlatformInstance', template: { platform: 'urn:svc:dataPlatform:{orchestrator}' } },
    ],
  },
  {
    name: 'dataJob',
    keyAspect: 'dataJobKey',
    keyFields: ['flow', 'jobId'],
    snapshot: `${SNAPSHOT}DataJobSnapshot`,
    aspects: ['dataJobInfo', 'dataJobInputOutput', 'editableDataJobProperties', 'versionInfo', ...COMMON,
      'datahubIngestionRunSummary', 'datahubIngestionCheckpoint'],
    defaults: [
      { aspect: 'browsePaths', template: { paths: ['/{flow:0}/{flow:2}/{flow:1}/{jobId}'] }, lowercase: true },
      { aspect: 'dataPlatformInstance', template: { platform: 'urn:svc:dataPlatform:{flow:0}' } },
    ],
  },
  {
    name: 'dataProcessInstance',
    keyAspect: 'dataProcessInstanceKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}DataProcessInstanceSnapshot`,
    aspects: ['dataProcessInstanceInput', 'dataProcessInstanceOutput', 'dataProcessInstanceProperties', 'dataProcessInstanceRelationships',
      'mlTrainingRunProperties', 'status', 'dataPlatformInstance', 'subTypes', 'container', 'testResults', 'dataProcessInstanceRunEvent'],
  },
  {
    name: 'schemaField',
    keyAspect: 'schemaFieldKey',
    keyFields: ['parent', 'fieldPath'],
    snapshot: `${SNAPSHOT}SchemaFieldSnapshot`,
    aspects: ['schemafieldInfo', 'structuredProperties', 'status', 'deprecation', 'testResults', 'documentation', 'businessAttributes'],
  },
  {
    name: 'glossaryNode',
    keyAspect: 'glossaryNodeKey',
    keyFields: ['name'],
    snapshot: `${SNAPSHOT}GlossaryNodeSnapshot`,
    aspects: ['glossaryNodeInfo', 'institutionalMemory', 'ownership', 'status', 'structuredProperties', 'testResults'],
  },
  {
    name: 'assertion',
    keyAspect: 'assertionKey',
    keyFields: ['assertionId'],
    snapshot: `${SNAPSHOT}AssertionSnapshot`,
    aspects: ['assertionInfo', 'dataPlatformInstance', 'status', 'globalTags', 'assertionRunEvent'],
  },
  {
    name: 'query',
    keyAspect: 'queryKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}QuerySnapshot`,
    aspects: ['queryProperties', 'querySubjects', 'status', 'dataPlatformInstance', 'subTypes', 'queryUsageStatistics'],
  },
  {
    name: 'post',
    keyAspect: 'postKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}PostSnapshot`,
    aspects: ['postInfo'],
  },
  {
    name: 'domain',
    keyAspect: 'domainKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}DomainSnapshot`,
    aspects: ['domainProperties', 'institutionalMemory', 'ownership', 'structuredProperties', 'testResults'],
  },
  {
    name: 'dataProduct',
    keyAspect: 'dataProductKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}DataProductSnapshot`,
    aspects: ['dataProductProperties', 'ownership', 'glossaryTerms', 'globalTags', 'domains', 'institutionalMemory', 'status',
      'structuredProperties', 'testResults'],
  },
  {
    name: 'platformResource',
    keyAspect: 'platformResourceKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}PlatformResourceSnapshot`,
    aspects: ['dataPlatformInstance', 'platformResourceInfo', 'status'],
  },
  {
    name: 'dataPlatformInstance',
    keyAspect: 'dataPlatformInstanceKey',
    keyFields: ['platform', 'instance'],
    snapshot: `${SNAPSHOT}DataPlatformInstanceSnapshot`,
    aspects: ['dataPlatformInstanceProperties', 'ownership', 'globalTags', 'institutionalMemory', 'deprecation', 'status'],
  },
  {
    name: 'mlModel',
    keyAspect: 'mlModelKey',
    keyFields: ['platform', 'name', 'origin'],
    snapshot: `${SNAPSHOT}MLModelSnapshot`,
    aspects: ['mlModelProperties', 'intendedUse', 'mlModelFactorPrompts', 'mlModelMetrics', 'mlModelEvaluationData', 'mlModelTrainingData',
      'mlModelQuantitativeAnalyses', 'mlModelEthicalConsiderations', 'mlModelCaveatsAndRecommendations', 'sourceCode', 'cost',
      'versionProperties', ...ML_COMMON],
    defaults: [ML_BROWSE, PLATFORM_OF_KEY],
  },
  {
    name: 'mlModelGroup',
    keyAspect: 'mlModelGroupKey',
    keyFields: ['platform', 'name', 'origin'],
    snapshot: `${SNAPSHOT}MLModelGroupSnapshot`,
    aspects: ['mlModelGroupProperties', ...ML_COMMON],
    defaults: [ML_BROWSE, PLATFORM_OF_KEY],
  },
  {
    name: 'mlModelDeployment',
    keyAspect: 'mlModelDeploymentKey',
    keyFields: ['platform', 'name', 'origin'],
    snapshot: `${SNAPSHOT}MLModelDeploymentSnapshot`,
    aspects: ['mlModelDeploymentProperties', ...ML_COMMON],
    defaults: [PLATFORM_OF_KEY],
  },
  {
    name: 'mlFeatureTable',
    keyAspect: 'mlFeatureTableKey',
    keyFields: ['platform', 'name'],
    snapshot: `${SNAPSHOT}MLFeatureTableSnapshot`,
    aspects: ['mlFeatureTableProperties', ...ML_COMMON],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{platform:id}/{name}'] }, lowercase: true }, PLATFORM_OF_KEY],
  },
  {
    name: 'mlFeature',
    keyAspect: 'mlFeatureKey',
    keyFields: ['featureNamespace', 'name'],
    snapshot: `${SNAPSHOT}MLFeatureSnapshot`,
    aspects: ['mlFeatureProperties', ...ML_COMMON],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{featureNamespace}/{name}'] }, lowercase: true }],
  },
  {
    name: 'mlPrimaryKey',
    keyAspect: 'mlPrimaryKeyKey',
    keyFields: ['featureNamespace', 'name'],
    snapshot: `${SNAPSHOT}MLPrimaryKeySnapshot`,
    aspects: ['mlPrimaryKeyProperties', ...ML_COMMON],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{featureNamespace}/{name}'] }, lowercase: true }],
  },
  {
    name: 'notebook',
    keyAspect: 'notebookKey',
    keyFields: ['notebookTool', 'notebookId'],
    snapshot: `${SNAPSHOT}NotebookSnapshot`,
    aspects: ['notebookInfo', 'notebookContent', 'ownership', 'status', 'globalTags', 'glossaryTerms', 'browsePaths', 'institutionalMemory',
      'domains', 'subTypes', 'dataPlatformInstance', 'browsePathsV2', 'container', 'deprecation', 'testResults'],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{notebookTool}/{notebookId}'] }, lowercase: true }],
  },
  {
    name: 'structuredProperty',
    keyAspect: 'structuredPropertyKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}StructuredPropertySnapshot`,
    aspects: ['propertyDefinition', 'institutionalMemory', 'status'],
  },
  {
    name: 'ownershipType',
    keyAspect: 'ownershipTypeKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}OwnershipTypeSnapshot`,
    aspects: ['ownershipTypeInfo', 'status'],
  },
  {
    name: 'role',
    keyAspect: 'roleKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}RoleSnapshot`,
    aspects: ['roleProperties', 'actors'],
  },
  {
    name: 'incident',
    keyAspect: 'incidentKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}IncidentSnapshot`,
    aspects: ['incidentInfo', 'globalTags'],
  },
  {
    name: 'dataContract',
    keyAspect: 'dataContractKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}DataContractSnapshot`,
    aspects: ['dataContractProperties', 'dataContractStatus', 'status'],
  },
  {
    name: 'versionSet',
    keyAspect: 'versionSetKey',
    keyFields: ['id', 'entityType'],
    snapshot: `${SNAPSHOT}VersionSetSnapshot`,
    aspects: ['versionSetProperties'],
  },
  {
    name: 'form',
    keyAspect: 'formKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}FormSnapshot`,
    aspects: ['formInfo', 'ownership', 'status'],
  },
  {
    name: 'businessAttribute',
    keyAspect: 'businessAttributeKey',
    keyFields: ['id'],
    snapshot: `${SNAPSHOT}BusinessAttributeSnapshot`,
    aspects: ['businessAttributeInfo', 'ownership', 'status', 'institutionalMemory'],
  },
]
