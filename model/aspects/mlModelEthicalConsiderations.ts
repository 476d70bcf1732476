/** Ethical considerations of an ML model: sensitive data, risks and mitigations. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

const ML = 'com.svc.ml.metadata.'
const Strings = Type.Optional(Type.Array(Type.String()))

export const EthicalConsiderations = Type.Object({ data: Strings, humanLife: Strings, mitigations: Strings, risksAndHarms: Strings, useCases: Strings })

export const mlModelEthicalConsiderations = defineAspect('mlModelEthicalConsiderations', `${ML}EthicalConsiderations`, EthicalConsiderations)
