/** The upstream fixtures (test/fixtures/upstream): request examples and catalog data in this service's naming. */
import { readFileSync } from 'node:fs'
import * as assert from 'uvu/assert'
import type { TestService } from './service.ts'

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

/**
 * Loads the upstream demo catalogue and its profiles through the service, as `headers` allow (records of types the
 * registry does not know are refused, and skipped); asserts that most of it loaded.
 */
export async function loadDemoCatalogue(svc: TestService, headers: Record<string, string> = {}): Promise<void> {
  let loaded = 0
  for (const request of [...fixture('bootstrap_mce.requests.json'), ...fixture('demo-profiles.requests.json')]) {
    if ((await svc.call(request.method, request.path, request.body, headers)).status === 200) loaded++
  }
  assert.ok(loaded >= 40, `demo catalogue loaded (${loaded} records)`)
}
