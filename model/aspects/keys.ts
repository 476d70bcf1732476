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
