/** An access role of a source platform (a warehouse role, a group of permissions). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const RoleProperties = Type.Object({
  name: Type.String({ searchable: { field: 'name', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  type: Type.Optional(Type.String()),
  requestUrl: Type.Optional(Type.String()),
})

export const roleProperties = defineAspect('roleProperties', 'com.svc.role.RoleProperties', RoleProperties)
