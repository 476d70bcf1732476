/**
 * `GET /config`: the handshake upstream's clients make before writing. The Python emitter refuses a server whose
 * answer lacks `"noCode": "true"`, reads `versions` to decide which of its features the server has, and reads the
 * capability flags below. Each flag states what this service actually does. The SDK switches to upstream's OpenAPI
 * v3 routes (OPEN_API_SDK) and write tracing (API_TRACING) for a "core" server whose `versions["acryldata/datahub"]`
 * is 1.0.1 or later: this service serves both (gateway/routes/openapi*.ts), so it reports the upstream release
 * whose routes it follows under that key, and its own version under its own name.
 */
import { readFileSync } from 'node:fs'
import type { GatewayDeps } from '../deps.ts'
import type { RouteSpec } from '../http/route.ts'

/** The upstream release whose OpenAPI v3 routes this service follows (gateway/routes/openapiEntities.ts). */
export const UPSTREAM_API_VERSION = 'v1.7.0'

const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string }

/** The handshake answer of a deployment. */
export function serverConfig(deps: GatewayDeps): Record<string, unknown> {
  const ns = deps.model.registry.namespace
  return {
    noCode: 'true',
    versions: { [PACKAGE.name]: { version: PACKAGE.version }, 'acryldata/datahub': { version: UPSTREAM_API_VERSION } },
    // A self-hosted ("core") server: with the version above, upstream's SDK uses the OpenAPI v3 routes and tracing.
    datahub: { serverType: 'gms', serverEnv: 'core' },
    // Beyond upstream's fields: the SDK features that version stands for, said plainly.
    features: { OPEN_API_SDK: true, API_TRACING: true },
    // PATCH proposals (JSON Patch on upstream's paths) are applied inside the entity's compare-and-set.
    patchCapable: true,
    // Stateful ingestion needs checkpoint aspects read back through upstream's graph API: not served here.
    statefulIngestionCapable: false,
    // Impact analysis needs upstream's lineage search: not served here.
    supportsImpactAnalysis: false,
    // This service collects no telemetry and asks clients for none.
    telemetry: { enabledCli: false, enabledIngestion: false },
    // No ingestion runs are scheduled by the server; clients run their own.
    managedIngestion: { enabled: false },
    // Beyond upstream's fields: what a client of this service may rely on.
    asyncWrites: true,
    conditionalWrites: ['If-Version-Match', 'If-None-Match'],
    namespace: { urn: ns.urn, record: ns.record, protocolHeader: ns.protocolHeader },
    auth: { required: deps.model.config.authEnabled },
  }
}

export function configRoutes(deps: GatewayDeps): RouteSpec[] {
  return [{
    method: 'GET',
    path: '/config',
    summary: 'Handshake of upstream clients: noCode, versions and the capabilities this service has',
    scope: 'read',
    handler: async function readConfig() { return { body: serverConfig(deps) } },
  }]
}
