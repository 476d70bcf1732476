/** Whether a user account is provisioned, active or suspended. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp } from './common.ts'

export const CorpUserStatus = Type.Object({
  status: Type.String({ searchable: { field: 'status', type: 'KEYWORD' } }),
  lastModified: AuditStamp,
})

export const corpUserStatus = defineAspect('corpUserStatus', 'com.svc.identity.CorpUserStatus', CorpUserStatus)
