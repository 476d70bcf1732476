/** Links to the source code of an ML model and its pipelines. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

const ML = 'com.svc.ml.metadata.'

export const SourceCode = Type.Object({
  sourceCode: Type.Array(Type.Object({
    type: Type.Enum(['ML_MODEL_SOURCE_CODE', 'TRAINING_PIPELINE_SOURCE_CODE', 'EVALUATION_PIPELINE_SOURCE_CODE']),
    sourceCodeUrl: Type.String(),
  })),
})

export const sourceCode = defineAspect('sourceCode', `${ML}SourceCode`, SourceCode)
