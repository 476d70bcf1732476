/**
 * Browse path of an entity as a list of entries (folders by id, containers by urn). Flattened into the `browsePaths`
 * search field as one `/` path of the entries (a container's urn, else the id) ending with the entity's urn, so a
 * container's leaf and its members' folder are the same path: one browsable tree next to the legacy paths.
 */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const BrowsePathEntry = Type.Object({
  id: Type.String(),
  urn: Type.Optional(Urn()),
})

export const BrowsePathsV2 = Type.Object({
  path: Type.Array(BrowsePathEntry, { searchable: { field: 'browsePaths', type: 'KEYWORD', joinPath: ['urn', 'id'], unique: true } }),
})

export const browsePathsV2 = defineAspect('browsePathsV2', 'com.svc.common.BrowsePathsV2', BrowsePathsV2)
