/** The datasets an ML model was trained on. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { BaseData } from './mlCommon.ts'

const ML = 'com.svc.ml.metadata.'

export const TrainingData = Type.Object({ trainingData: Type.Array(BaseData) })

export const mlModelTrainingData = defineAspect('mlModelTrainingData', `${ML}TrainingData`, TrainingData)
