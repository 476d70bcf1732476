/** A dashboard's description as edited in this service. */
import { defineAspect } from './aspect.ts'
import { EditableDataJobProperties } from './editableDataJobProperties.ts'

export const EditableDashboardProperties = EditableDataJobProperties

export const editableDashboardProperties = defineAspect('editableDashboardProperties', 'com.svc.dashboard.EditableDashboardProperties', EditableDashboardProperties)
