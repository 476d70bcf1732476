/** An incident raised on assets (IncidentOn edges); its status, priority and source are kept as sent. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { AuditStamp, Open, UrnList } from './common.ts'

export const IncidentInfo = Open({
  type: Type.String({ searchable: { field: 'type', type: 'KEYWORD', facet: true } }),
  customType: Type.Optional(Type.String()),
  title: Type.Optional(Type.String({ searchable: { field: 'title', type: 'TEXT', boost: 10, queryByDefault: true } })),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  entities: UrnList({ relationship: { name: 'IncidentOn' }, searchable: { field: 'entities', type: 'URN' } }),
  created: AuditStamp,
})

export const incidentInfo = defineAspect('incidentInfo', 'com.svc.incident.IncidentInfo', IncidentInfo)
