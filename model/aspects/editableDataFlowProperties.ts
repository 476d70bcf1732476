/** A pipeline's description as edited in this service. */
import { defineAspect } from './aspect.ts'
import { EditableDataJobProperties } from './editableDataJobProperties.ts'

export const EditableDataFlowProperties = EditableDataJobProperties

export const editableDataFlowProperties = defineAspect('editableDataFlowProperties', 'com.svc.datajob.EditableDataFlowProperties', EditableDataFlowProperties)
