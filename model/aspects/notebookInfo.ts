/** What a notebook is called and who changed it when. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { ChangeAuditStamps, CustomAndExternal } from './common.ts'

export const NotebookInfo = Type.Object({
  ...CustomAndExternal,
  title: Type.String({ searchable: { field: 'title', type: 'TEXT', boost: 10, queryByDefault: true, autocomplete: true } }),
  description: Type.Optional(Type.String({ searchable: { field: 'description', type: 'TEXT', queryByDefault: true } })),
  changeAuditStamps: ChangeAuditStamps,
})

export const notebookInfo = defineAspect('notebookInfo', 'com.svc.notebook.NotebookInfo', NotebookInfo)
