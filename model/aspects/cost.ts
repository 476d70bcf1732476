/** What an asset costs; `cost` is a union with member aliases (`{"costCode": "..."}` or `{"costId": 1.5}`). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { UnionOf } from './common.ts'

export const Cost = Type.Object({
  costType: Type.Enum(['ORG_COST_TYPE']),
  cost: UnionOf({ costId: Type.Number(), costCode: Type.String() }),
})

export const cost = defineAspect('cost', 'com.svc.common.Cost', Cost)
