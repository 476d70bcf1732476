/** Results of an ML model's quantitative analyses (unitary and intersectional). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

const ML = 'com.svc.ml.metadata.'

export const QuantitativeAnalyses = Type.Object({
  unitaryResults: Type.Optional(Type.String()),
  intersectionalResults: Type.Optional(Type.String()),
})

export const mlModelQuantitativeAnalyses = defineAspect('mlModelQuantitativeAnalyses', `${ML}QuantitativeAnalyses`, QuantitativeAnalyses)
