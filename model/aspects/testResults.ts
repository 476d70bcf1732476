/** Results of the tests (data quality or governance checks) run against an asset. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { Urn } from './common.ts'

export const TestResult = Type.Object({
  test: Urn(),
  type: Type.Enum(['SUCCESS', 'FAILURE']),
  testDefinitionMd5: Type.Optional(Type.String()),
  lastComputed: Type.Optional(Type.Object({ time: Type.Integer(), actor: Type.Optional(Urn()) }, { additionalProperties: true })),
})

export const TestResults = Type.Object({
  failing: Type.Array(TestResult),
  passing: Type.Array(TestResult),
})

export const testResults = defineAspect('testResults', 'com.svc.test.TestResults', TestResults)
