/**
 * Browse path of an entity as a list of entries (folders, or containers by urn). Flattened into the `browsePaths`
 * search field as one `/` path of the entries' ids ending with the entity's urn, so containers and their members
 * form one browsable tree next to the legacy paths.
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const BrowsePathEntry = Type.Object({
  id: Type.String(),
  urn: Type.Optional(Urn()),
})

export const BrowsePathsV2 = Type.Object({
  path: Type.Array(BrowsePathEntry, { searchable: { field: 'browsePaths', type: 'KEYWORD', joinPath: 'id' } }),
})

export const browsePathsV2 = defineAspect('browsePathsV2', 'com.svc.common.BrowsePathsV2', BrowsePathsV2)
