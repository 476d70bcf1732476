/** A training run (a process instance): its id, outputs, hyper-parameters and metrics. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { CustomAndExternal } from './common.ts'
import { MLNamedValue } from './mlCommon.ts'

export const MLTrainingRunProperties = Type.Object({
  ...CustomAndExternal,
  id: Type.Optional(Type.String()),
  outputUrls: Type.Optional(Type.Array(Type.String())),
  hyperParams: Type.Optional(Type.Array(MLNamedValue)),
  trainingMetrics: Type.Optional(Type.Array(MLNamedValue)),
})

export const mlTrainingRunProperties = defineAspect('mlTrainingRunProperties', 'com.svc.ml.metadata.MLTrainingRunProperties', MLTrainingRunProperties)
