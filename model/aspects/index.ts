/** Every built-in aspect, in the order snapshots list them. */
import type { AspectSpec } from './aspect.ts'
import { browsePaths } from './browsePaths.ts'
import { chartInfo } from './chartInfo.ts'
import { container } from './container.ts'
import { corpGroupInfo } from './corpGroupInfo.ts'
import { corpUserEditableInfo } from './corpUserEditableInfo.ts'
import { corpUserInfo } from './corpUserInfo.ts'
import { corpUserStatus } from './corpUserStatus.ts'
import { dashboardInfo } from './dashboardInfo.ts'
import { dataPlatformInfo } from './dataPlatformInfo.ts'
import { dataPlatformInstance } from './dataPlatformInstance.ts'
import { datasetProfile } from './datasetProfile.ts'
import { datasetProperties } from './datasetProperties.ts'
import { datasetUsageStatistics } from './datasetUsageStatistics.ts'
import { domains } from './domains.ts'
import { editableDatasetProperties } from './editableDatasetProperties.ts'
import { editableSchemaMetadata } from './editableSchemaMetadata.ts'
import { globalTags } from './globalTags.ts'
import { glossaryTermInfo } from './glossaryTermInfo.ts'
import { glossaryTerms } from './glossaryTerms.ts'
import { institutionalMemory } from './institutionalMemory.ts'
import {
  chartKey, corpGroupKey, corpUserKey, dashboardKey, dataPlatformKey, datasetKey, glossaryTermKey, tagKey,
} from './keys.ts'
import { operation } from './operation.ts'
import { ownership } from './ownership.ts'
import { schemaMetadata } from './schemaMetadata.ts'
import { status } from './status.ts'
import { subTypes } from './subTypes.ts'
import { tagProperties } from './tagProperties.ts'
import { upstreamLineage } from './upstreamLineage.ts'

export const BUILTIN_ASPECTS: readonly AspectSpec[] = [
  datasetKey, chartKey, dashboardKey, corpUserKey, corpGroupKey, tagKey, glossaryTermKey, dataPlatformKey,
  corpUserInfo, corpUserEditableInfo, corpUserStatus, corpGroupInfo,
  datasetProperties, editableDatasetProperties, schemaMetadata, editableSchemaMetadata, upstreamLineage,
  chartInfo, dashboardInfo, tagProperties, glossaryTermInfo, dataPlatformInfo,
  ownership, institutionalMemory, globalTags, glossaryTerms, status, browsePaths, dataPlatformInstance,
  container, subTypes, domains,
  datasetProfile, datasetUsageStatistics, operation,
]
