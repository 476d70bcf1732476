/** A data contract on an asset (a ContractFor edge); its schema, freshness and quality clauses are kept as sent. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Open, Urn } from './common.ts'

export const DataContractProperties = Open({
  entity: Urn({ relationship: { name: 'ContractFor' }, searchable: { field: 'entity', type: 'URN' } }),
  rawContract: Type.Optional(Type.String()),
})

export const dataContractProperties = defineAspect('dataContractProperties', 'com.svc.datacontract.DataContractProperties', DataContractProperties)
