/** Documentation of a schema field (upstream 1.x), possibly from several sources, each with its attribution. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Open } from './common.ts'

export const Documentation = Open({
  documentations: Type.Array(Open({
    documentation: Type.String({ searchable: { field: 'documentation', type: 'TEXT', queryByDefault: true } }),
    attribution: Type.Optional(Open({})),
  })),
})

export const documentation = defineAspect('documentation', 'com.svc.common.Documentation', Documentation)
