/** The measures an ML model is judged by and its decision thresholds. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

const ML = 'com.svc.ml.metadata.'
const Strings = Type.Optional(Type.Array(Type.String()))

export const Metrics = Type.Object({ performanceMeasures: Strings, decisionThreshold: Strings })

export const mlModelMetrics = defineAspect('mlModelMetrics', `${ML}Metrics`, Metrics)
