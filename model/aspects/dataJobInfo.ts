/** What a job (a task of a pipeline) is called, its type, and the flow it belongs to. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal, TimeStamp, UnionOf, Urn } from './common.ts'
import { FabricType } from './keys.ts'

/** Upstream's deprecated Azkaban job types, the enum member of the `type` union. */
export const AzkabanJobType = Type.Enum(['COMMAND', 'HADOOP_JAVA', 'HADOOP_SHELL', 'HIVE', 'PIG', 'SQL', 'GLUE'])

export const JobStatus = Type.Enum(['STARTING', 'IN_PROGRESS', 'STOPPING', 'STOPPED', 'COMPLETED', 'FAILED', 'UNKNOWN', 'SKIPPED'])

export const DataJobInfo = Type.Object({
  ...CustomAndExternal,
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  type: UnionOf({
    'com.svc.datajob.azkaban.AzkabanJobType': AzkabanJobType,
    string: Type.String(),
  }),
  flowUrn: Type.Optional(Urn({ urnOf: 'dataFlow' })),
  created: Type.Optional(TimeStamp),
  lastModified: Type.Optional(TimeStamp),
  status: Type.Optional(JobStatus),
  env: Type.Optional(FabricType),
})

export const dataJobInfo = defineAspect('dataJobInfo', 'com.svc.datajob.DataJobInfo', DataJobInfo)
