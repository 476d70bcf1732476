/** The datasets an ML model was evaluated on. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { BaseData } from './mlCommon.ts'

const ML = 'com.svc.ml.metadata.'

export const EvaluationData = Type.Object({ evaluationData: Type.Array(BaseData) })

export const mlModelEvaluationData = defineAspect('mlModelEvaluationData', `${ML}EvaluationData`, EvaluationData)
