/** Caveats of an ML model and recommendations for its use. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

const ML = 'com.svc.ml.metadata.'
const Strings = Type.Optional(Type.Array(Type.String()))

export const CaveatsAndRecommendations = Type.Object({
  caveats: Type.Optional(Type.Object({
    needsFurtherTesting: Type.Optional(Type.Boolean()),
    caveatDescription: Type.Optional(Type.String()),
    groupsNotRepresented: Strings,
  })),
  recommendations: Type.Optional(Type.String()),
  idealDatasetCharacteristics: Strings,
})

export const mlModelCaveatsAndRecommendations = defineAspect('mlModelCaveatsAndRecommendations', `${ML}CaveatsAndRecommendations`, CaveatsAndRecommendations)
