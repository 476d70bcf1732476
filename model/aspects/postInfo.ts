/** A post (an announcement on the home page or on an entity). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, Urn } from './common.ts'

export const PostContent = Type.Object({
  title: Type.String({ searchable: { field: 'title', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  type: Type.Enum(['TEXT', 'LINK']),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  link: Type.Optional(Type.String()),
  media: Type.Optional(Type.Object({ type: Type.Enum(['IMAGE']), location: Type.String() })),
})

export const PostInfo = Type.Object({
  type: Type.Enum(['HOME_PAGE_ANNOUNCEMENT', 'ENTITY_ANNOUNCEMENT'], { searchable: { field: 'type', type: 'KEYWORD' } }),
  content: PostContent,
  created: Type.Integer({ searchable: { field: 'created', type: 'COUNT' } }),
  lastModified: Type.Integer({ searchable: { field: 'lastModified', type: 'COUNT' } }),
  auditStamp: Type.Optional(AuditStamp),
  target: Type.Optional(Urn({ searchable: { field: 'target', type: 'URN' } })),
})

export const postInfo = defineAspect('postInfo', 'com.svc.post.PostInfo', PostInfo)
