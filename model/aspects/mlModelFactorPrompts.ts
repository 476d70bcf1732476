/** Factors (groups, instrumentation, environments) relevant to an ML model and used in its evaluation. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

const ML = 'com.svc.ml.metadata.'
const Strings = Type.Optional(Type.Array(Type.String()))

const MLModelFactors = Type.Object({ groups: Strings, instrumentation: Strings, environment: Strings })
export const MLModelFactorPrompts = Type.Object({
  relevantFactors: Type.Optional(Type.Array(MLModelFactors)),
  evaluationFactors: Type.Optional(Type.Array(MLModelFactors)),
})

export const mlModelFactorPrompts = defineAspect('mlModelFactorPrompts', `${ML}MLModelFactorPrompts`, MLModelFactorPrompts)
