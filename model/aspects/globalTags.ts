/** Tags on an entity: TaggedWith edges and the `tags` search field and facet. */
import { defineAspect } from './aspect.ts'
import { TagAssociations } from './common.ts'

export const GlobalTags = TagAssociations('TaggedWith', 'tags')

export const globalTags = defineAspect('globalTags', 'com.svc.common.GlobalTags', GlobalTags)
