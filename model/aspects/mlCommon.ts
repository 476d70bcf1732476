/** Schema pieces shared by the ML aspects: feature data types, metrics and hyper-parameters, lineage to jobs. */
import { Type } from 'typebox'
import { TimeStamp, UnionOf, UrnList, VersionTag } from './common.ts'

export const MLFeatureDataType = Type.Enum(['USELESS', 'NOMINAL', 'ORDINAL', 'BINARY', 'COUNT', 'TIME', 'INTERVAL', 'IMAGE', 'VIDEO', 'AUDIO',
  'TEXT', 'MAP', 'SEQUENCE', 'SET', 'CONTINUOUS', 'BYTE', 'UNKNOWN'], { searchable: { field: 'dataType', type: 'KEYWORD', facet: true } })

/** A named value with an optional description (`MLMetric`, `MLHyperParam`). */
export const MLNamedValue = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  createdAt: Type.Optional(Type.Integer()),
})

export const HyperParameterValueType = UnionOf({
  string: Type.String(),
  int: Type.Integer(),
  float: Type.Number(),
  double: Type.Number(),
  boolean: Type.Boolean(),
})

/** `MLModelLineageInfo`: the jobs that trained a model or group (TrainedBy) and the jobs that use it (UsedBy). */
export const MLModelLineageInfo = {
  trainingJobs: Type.Optional(UrnList({ relationship: { name: 'TrainedBy', entityTypes: ['dataJob', 'dataProcessInstance'], lineage: 'upstream' } })),
  downstreamJobs: Type.Optional(UrnList({ relationship: { name: 'UsedBy', entityTypes: ['dataJob', 'dataProcessInstance'], lineage: 'downstream' } })),
}

/** What models and model groups both say of themselves: name (searched as displayName), description, dates, version. */
export const MLModelDescription = {
  name: Type.Optional(Type.String({ searchable: { field: 'displayName', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  created: Type.Optional(TimeStamp),
  lastModified: Type.Optional(TimeStamp),
  version: Type.Optional(VersionTag),
}

/** The datasets a feature or primary key is derived from (DerivedFrom, upstream lineage). */
export const FeatureSources = UrnList({ relationship: { name: 'DerivedFrom', entityTypes: ['dataset'], lineage: 'upstream' }, searchable: { field: 'sources', type: 'URN' } })

/** A dataset a model was trained or evaluated on (`BaseData`). */
export const BaseData = Type.Object({
  dataset: Type.String(),
  motivation: Type.Optional(Type.String()),
  preProcessing: Type.Optional(Type.Array(Type.String())),
})
