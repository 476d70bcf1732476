/** The upstream fixtures (test/fixtures/upstream): request examples and catalog data in this service's naming. */
import { readFileSync } from 'node:fs'

export interface FixtureRequest {
  name: string
  method: string
  path: string
  headers?: Record<string, string>
  body: unknown
  shownResponse?: unknown
  notes?: string
}

/** Reads `test/fixtures/upstream/<file>`. */
export function fixture(file: string): FixtureRequest[] {
  return JSON.parse(readFileSync(new URL(`../fixtures/upstream/${file}`, import.meta.url), 'utf8')) as FixtureRequest[]
}

/** Entity types of the spec (records of other types are out of spec). */
export const IN_SPEC = ['dataset', 'chart', 'dashboard', 'corpuser', 'corpGroup', 'tag', 'glossaryTerm']

/** Whether a fixture record's notes mark it in-spec. */
export function isInSpec(request: FixtureRequest): boolean {
  return (request.notes ?? '').includes('[in-spec]')
}

const encode = (urn: string) => encodeURIComponent(urn)
/** Path of an entity read. */
export const v2 = (urn: string, query = '') => `/entitiesV2/${encode(urn)}${query}`
export const legacy = (urn: string) => `/entities/${encode(urn)}`
export const versioned = (urn: string, aspect: string, version: number | string) => `/aspects/${encode(urn)}?aspect=${aspect}&version=${version}`
