/** A chart's description as edited in this service. */
import { defineAspect } from './aspect.ts'
import { EditableDataJobProperties } from './editableDataJobProperties.ts'

export const EditableChartProperties = EditableDataJobProperties

export const editableChartProperties = defineAspect('editableChartProperties', 'com.svc.chart.EditableChartProperties', EditableChartProperties)
