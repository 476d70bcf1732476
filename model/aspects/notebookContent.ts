/** The cells of a notebook (text, query and chart cells), kept as sent beyond their type. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Open } from './common.ts'

export const NotebookContent = Type.Object({
  cells: Type.Array(Open({ type: Type.Enum(['TEXT_CELL', 'QUERY_CELL', 'CHART_CELL']) })),
})

export const notebookContent = defineAspect('notebookContent', 'com.svc.notebook.NotebookContent', NotebookContent)
