/**
 * How upstream addresses items of arrays in patch paths: by key, not by position. `/tags/<tag urn>` is the item of
 * `tags` whose `tag` is that urn; `/owners/<owner urn>/<type>` is the owner of that type. Arrays listed here are
 * keyed by the named fields (one path level per field); arrays of urns are keyed by the urn itself wherever they are.
 * Any other array is addressed by index (`/fields/0`), as RFC 6902 does.
 *
 * Paths are the array's place in the aspect with `*` standing for one keyed item (`editableSchemaFieldInfo/*`).
 * These are upstream's patch templates' keys (metadata-io's ArrayMergingTemplate subclasses).
 */
import { fineGrainedFromMap, fineGrainedToMap } from './fineGrainedLineage.ts'

/** Key fields of the keyed object arrays, per aspect and array path. An empty list: items keyed by their own value. */
export const ARRAY_KEYS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  globalTags: { tags: ['tag'] },
  glossaryTerms: { terms: ['urn'] },
  ownership: { owners: ['owner', 'type'] },
  upstreamLineage: { upstreams: ['dataset'] },
  institutionalMemory: { elements: ['url'] },
  editableSchemaMetadata: {
    editableSchemaFieldInfo: ['fieldPath'],
    'editableSchemaFieldInfo/*/globalTags/tags': ['tag'],
    'editableSchemaFieldInfo/*/glossaryTerms/terms': ['urn'],
  },
  schemaMetadata: {
    'fields/*/globalTags/tags': ['tag'],
    'fields/*/glossaryTerms/terms': ['urn'],
  },
  subTypes: { typeNames: [] },
  datasetProperties: { tags: [] },
  dataJobInputOutput: { inputDatasetEdges: ['destinationUrn'], outputDatasetEdges: ['destinationUrn'], inputDatajobEdges: ['destinationUrn'] },
  dataProcessInstanceInput: { inputEdges: ['destinationUrn'] },
  dataProcessInstanceOutput: { outputEdges: ['destinationUrn'] },
  chartInfo: { inputEdges: ['destinationUrn'] },
  dashboardInfo: { chartEdges: ['destinationUrn'], datasetEdges: ['destinationUrn'] },
  dataProductProperties: { assets: ['destinationUrn'] },
  structuredProperties: { properties: ['propertyUrn'] },
  testResults: { passing: ['test'], failing: ['test'] },
}

/** Arrays whose keyed form is not one level per key field, with their own conversion (upstream has the same few). */
export const CUSTOM_FORMS: Readonly<Record<string, Readonly<Record<string, { toMap: (array: unknown) => unknown; fromMap: (map: unknown) => unknown }>>>> = {
  upstreamLineage: { fineGrainedLineages: { toMap: fineGrainedToMap, fromMap: fineGrainedFromMap } },
  dataJobInputOutput: { fineGrainedLineages: { toMap: fineGrainedToMap, fromMap: fineGrainedFromMap } },
}

/** The key fields of the array at `path` of `aspect`, or undefined when it is not listed. */
export function arrayKeysOf(aspect: string, path: string): readonly string[] | undefined {
  return ARRAY_KEYS[aspect]?.[path]
}
