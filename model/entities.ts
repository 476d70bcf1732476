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
  'dataPlatformInstance', 'container', 'subTypes', 'domains']

export const BUILTIN_ENTITIES: readonly EntitySpec[] = [
  {
    name: 'dataset',
    keyAspect: 'datasetKey',
    keyFields: ['platform', 'name', 'origin'],
    snapshot: `${SNAPSHOT}DatasetSnapshot`,
    aspects: ['datasetProperties', 'editableDatasetProperties', 'schemaMetadata', 'editableSchemaMetadata',
      'upstreamLineage', ...COMMON, 'datasetProfile', 'datasetUsageStatistics', 'operation'],
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
    aspects: ['chartInfo', ...COMMON],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{dashboardTool}/{chartId}'] }, lowercase: true }],
  },
  {
    name: 'dashboard',
    keyAspect: 'dashboardKey',
    keyFields: ['dashboardTool', 'dashboardId'],
    snapshot: `${SNAPSHOT}DashboardSnapshot`,
    aspects: ['dashboardInfo', ...COMMON],
    defaults: [{ aspect: 'browsePaths', template: { paths: ['/{dashboardTool}/{dashboardId}'] }, lowercase: true }],
  },
  {
    name: 'corpuser',
    keyAspect: 'corpUserKey',
    keyFields: ['username'],
    snapshot: `${SNAPSHOT}CorpUserSnapshot`,
    aspects: ['corpUserInfo', 'corpUserEditableInfo', 'corpUserStatus', 'globalTags', 'status'],
  },
  {
    name: 'corpGroup',
    keyAspect: 'corpGroupKey',
    keyFields: ['name'],
    snapshot: `${SNAPSHOT}CorpGroupSnapshot`,
    aspects: ['corpGroupInfo', 'globalTags', 'ownership', 'status'],
  },
  {
    name: 'tag',
    keyAspect: 'tagKey',
    keyFields: ['name'],
    snapshot: `${SNAPSHOT}TagSnapshot`,
    aspects: ['tagProperties', 'ownership', 'status'],
  },
  {
    name: 'glossaryTerm',
    keyAspect: 'glossaryTermKey',
    keyFields: ['name'],
    snapshot: `${SNAPSHOT}GlossaryTermSnapshot`,
    aspects: ['glossaryTermInfo', 'ownership', 'institutionalMemory', 'domains', 'status', 'browsePaths'],
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
]
