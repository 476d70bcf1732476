/** Every built-in aspect: key aspects first, then the others (alphabetical), then timeseries ones. */
import type { AspectSpec } from './aspect.ts'
import { actors } from './actors.ts'
import { assertionInfo } from './assertionInfo.ts'
import { assertionRunEvent } from './assertionRunEvent.ts'
import { browsePaths } from './browsePaths.ts'
import { browsePathsV2 } from './browsePathsV2.ts'
import { chartInfo } from './chartInfo.ts'
import { chartQuery } from './chartQuery.ts'
import { chartUsageStatistics } from './chartUsageStatistics.ts'
import { container } from './container.ts'
import { containerProperties } from './containerProperties.ts'
import { corpGroupEditableInfo } from './corpGroupEditableInfo.ts'
import { corpGroupInfo } from './corpGroupInfo.ts'
import { corpUserEditableInfo } from './corpUserEditableInfo.ts'
import { corpUserInfo } from './corpUserInfo.ts'
import { corpUserStatus } from './corpUserStatus.ts'
import { cost } from './cost.ts'
import { dashboardInfo } from './dashboardInfo.ts'
import { dashboardUsageStatistics } from './dashboardUsageStatistics.ts'
import { dataContractProperties } from './dataContractProperties.ts'
import { dataContractStatus } from './dataContractStatus.ts'
import { dataFlowInfo } from './dataFlowInfo.ts'
import { dataJobInfo } from './dataJobInfo.ts'
import { dataJobInputOutput } from './dataJobInputOutput.ts'
import { dataPlatformInfo } from './dataPlatformInfo.ts'
import { dataPlatformInstance } from './dataPlatformInstance.ts'
import { dataPlatformInstanceProperties } from './dataPlatformInstanceProperties.ts'
import { dataProcessInstanceInput } from './dataProcessInstanceInput.ts'
import { dataProcessInstanceOutput } from './dataProcessInstanceOutput.ts'
import { dataProcessInstanceProperties } from './dataProcessInstanceProperties.ts'
import { dataProcessInstanceRelationships } from './dataProcessInstanceRelationships.ts'
import { dataProcessInstanceRunEvent } from './dataProcessInstanceRunEvent.ts'
import { dataProductProperties } from './dataProductProperties.ts'
import { datahubIngestionCheckpoint } from './datahubIngestionCheckpoint.ts'
import { datahubIngestionRunSummary } from './datahubIngestionRunSummary.ts'
import { datasetDeprecation } from './datasetDeprecation.ts'
import { datasetProfile } from './datasetProfile.ts'
import { datasetProperties } from './datasetProperties.ts'
import { datasetUsageStatistics } from './datasetUsageStatistics.ts'
import { deprecation } from './deprecation.ts'
import { domainProperties } from './domainProperties.ts'
import { domains } from './domains.ts'
import { editableChartProperties } from './editableChartProperties.ts'
import { editableContainerProperties } from './editableContainerProperties.ts'
import { editableDashboardProperties } from './editableDashboardProperties.ts'
import { editableDataFlowProperties } from './editableDataFlowProperties.ts'
import { editableDataJobProperties } from './editableDataJobProperties.ts'
import { editableDatasetProperties } from './editableDatasetProperties.ts'
import { editableSchemaMetadata } from './editableSchemaMetadata.ts'
import { embed } from './embed.ts'
import { globalTags } from './globalTags.ts'
import { glossaryNodeInfo } from './glossaryNodeInfo.ts'
import { glossaryRelatedTerms } from './glossaryRelatedTerms.ts'
import { glossaryTermInfo } from './glossaryTermInfo.ts'
import { glossaryTerms } from './glossaryTerms.ts'
import { groupMembership } from './groupMembership.ts'
import { incidentInfo } from './incidentInfo.ts'
import { inputFields } from './inputFields.ts'
import { institutionalMemory } from './institutionalMemory.ts'
import { intendedUse } from './intendedUse.ts'
import { mlFeatureProperties } from './mlFeatureProperties.ts'
import { mlFeatureTableProperties } from './mlFeatureTableProperties.ts'
import { mlModelCaveatsAndRecommendations } from './mlModelCaveatsAndRecommendations.ts'
import { mlModelDeploymentProperties } from './mlModelDeploymentProperties.ts'
import { mlModelEthicalConsiderations } from './mlModelEthicalConsiderations.ts'
import { mlModelEvaluationData } from './mlModelEvaluationData.ts'
import { mlModelFactorPrompts } from './mlModelFactorPrompts.ts'
import { mlModelGroupProperties } from './mlModelGroupProperties.ts'
import { mlModelMetrics } from './mlModelMetrics.ts'
import { mlModelProperties } from './mlModelProperties.ts'
import { mlModelQuantitativeAnalyses } from './mlModelQuantitativeAnalyses.ts'
import { mlModelTrainingData } from './mlModelTrainingData.ts'
import { mlPrimaryKeyProperties } from './mlPrimaryKeyProperties.ts'
import { mlTrainingRunProperties } from './mlTrainingRunProperties.ts'
import { nativeGroupMembership } from './nativeGroupMembership.ts'
import { notebookContent } from './notebookContent.ts'
import { notebookInfo } from './notebookInfo.ts'
import { operation } from './operation.ts'
import { origin } from './origin.ts'
import { ownership } from './ownership.ts'
import { ownershipTypeInfo } from './ownershipTypeInfo.ts'
import { platformResourceInfo } from './platformResourceInfo.ts'
import { postInfo } from './postInfo.ts'
import { propertyDefinition } from './propertyDefinition.ts'
import { queryProperties } from './queryProperties.ts'
import { querySubjects } from './querySubjects.ts'
import { queryUsageStatistics } from './queryUsageStatistics.ts'
import { roleProperties } from './roleProperties.ts'
import { schemaMetadata } from './schemaMetadata.ts'
import { schemafieldInfo } from './schemafieldInfo.ts'
import { siblings } from './siblings.ts'
import { sourceCode } from './sourceCode.ts'
import { status } from './status.ts'
import { structuredProperties } from './structuredProperties.ts'
import { subTypes } from './subTypes.ts'
import { tagProperties } from './tagProperties.ts'
import { testResults } from './testResults.ts'
import { upstreamLineage } from './upstreamLineage.ts'
import { versionInfo } from './versionInfo.ts'
import { versionProperties } from './versionProperties.ts'
import { versionSetProperties } from './versionSetProperties.ts'
import { viewProperties } from './viewProperties.ts'
import { businessAttributeInfo, businessAttributes } from './businessAttributeInfo.ts'
import { documentation } from './documentation.ts'
import { formInfo } from './formInfo.ts'
import {
  datasetKey, chartKey, dashboardKey, corpUserKey, corpGroupKey, tagKey, glossaryTermKey, dataPlatformKey,
  containerKey, dataFlowKey, dataJobKey, dataProcessInstanceKey, schemaFieldKey, glossaryNodeKey, assertionKey,
  queryKey, postKey, domainKey, dataProductKey, platformResourceKey, dataPlatformInstanceKey, mlFeatureKey,
  mlPrimaryKeyKey, mlFeatureTableKey, mlModelKey, mlModelGroupKey, mlModelDeploymentKey, notebookKey,
  structuredPropertyKey, ownershipTypeKey, roleKey, incidentKey, dataContractKey, versionSetKey, formKey,
  businessAttributeKey,
} from './keys.ts'

export const BUILTIN_ASPECTS: readonly AspectSpec[] = [
  datasetKey, chartKey, dashboardKey, corpUserKey, corpGroupKey, tagKey, glossaryTermKey, dataPlatformKey,
  containerKey, dataFlowKey, dataJobKey, dataProcessInstanceKey, schemaFieldKey, glossaryNodeKey, assertionKey,
  queryKey, postKey, domainKey, dataProductKey, platformResourceKey, dataPlatformInstanceKey, mlFeatureKey,
  mlPrimaryKeyKey, mlFeatureTableKey, mlModelKey, mlModelGroupKey, mlModelDeploymentKey, notebookKey,
  structuredPropertyKey, ownershipTypeKey, roleKey, incidentKey, dataContractKey, versionSetKey, formKey,
  businessAttributeKey, formInfo, businessAttributeInfo, businessAttributes, documentation,
  actors, assertionInfo, browsePaths, browsePathsV2, chartInfo, chartQuery, container, containerProperties,
  corpGroupEditableInfo, corpGroupInfo, corpUserEditableInfo, corpUserInfo, corpUserStatus, cost, dashboardInfo,
  dataContractProperties, dataContractStatus, dataFlowInfo, dataJobInfo, dataJobInputOutput, dataPlatformInfo,
  dataPlatformInstance, dataPlatformInstanceProperties, dataProcessInstanceInput, dataProcessInstanceOutput,
  dataProcessInstanceProperties, dataProcessInstanceRelationships, dataProductProperties, datasetDeprecation,
  datasetProperties, deprecation, domainProperties, domains, editableChartProperties, editableContainerProperties,
  editableDashboardProperties, editableDataFlowProperties, editableDataJobProperties, editableDatasetProperties,
  editableSchemaMetadata, embed, globalTags, glossaryNodeInfo, glossaryRelatedTerms, glossaryTermInfo, glossaryTerms,
  groupMembership, incidentInfo, inputFields, institutionalMemory, intendedUse, mlFeatureProperties,
  mlFeatureTableProperties, mlModelCaveatsAndRecommendations, mlModelDeploymentProperties,
  mlModelEthicalConsiderations, mlModelEvaluationData, mlModelFactorPrompts, mlModelGroupProperties, mlModelMetrics,
  mlModelProperties, mlModelQuantitativeAnalyses, mlModelTrainingData, mlPrimaryKeyProperties,
  mlTrainingRunProperties, nativeGroupMembership, notebookContent, notebookInfo, origin, ownership,
  ownershipTypeInfo, platformResourceInfo, postInfo, propertyDefinition, queryProperties, querySubjects,
  roleProperties, schemaMetadata, schemafieldInfo, siblings, sourceCode, status, structuredProperties, subTypes,
  tagProperties, testResults, upstreamLineage, versionInfo, versionProperties, versionSetProperties, viewProperties,
  assertionRunEvent, chartUsageStatistics, dashboardUsageStatistics, dataProcessInstanceRunEvent,
  datahubIngestionCheckpoint, datahubIngestionRunSummary, datasetProfile, datasetUsageStatistics, operation,
  queryUsageStatistics,
]
