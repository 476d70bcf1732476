/** Whether a data contract is in force. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { StringMap } from './common.ts'

export const DataContractStatus = Type.Object({
  customProperties: Type.Optional(StringMap),
  state: Type.Enum(['ACTIVE', 'PENDING'], { searchable: { field: 'state', type: 'KEYWORD' } }),
})

export const dataContractStatus = defineAspect('dataContractStatus', 'com.svc.datacontract.DataContractStatus', DataContractStatus)
