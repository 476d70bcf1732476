/** Routes 2 and 4 (legacy): snapshot ingest `POST /entities?action=ingest` and snapshot read `GET /entities/<urn>`. */
import { parseUrn } from '../../model/urn.ts'
import { IngestSchema, parseIngest, snapshotView } from '../../model/snapshot.ts'
import type { GatewayDeps } from '../deps.ts'
import type { RouteSpec } from '../http/route.ts'

export function entitiesRoutes({ model, writer }: GatewayDeps): RouteSpec[] {
  const { registry, store } = model
  return [
    {
      method: 'POST',
      path: '/entities',
      action: 'ingest',
      summary: 'Ingest an entity snapshot (legacy): all its aspects applied atomically; answers {} once applied',
      scope: 'write',
      body: true,
      requestSchema: IngestSchema,
      example: {
        request: { entity: { value: { 'com.svc.metadata.snapshot.TagSnapshot': { urn: 'urn:svc:tag:Engineering', aspects: [{ 'com.svc.tag.TagProperties': { name: 'Engineering', description: 'Owned by the Eng org.' } }] } } } },
        response: {},
      },
      handler: async (req) => {
        const item = parseIngest(registry, req.body)
        await writer.submit([item], req.actor)
        return { body: {} }
      },
    },
    {
      method: 'GET',
      path: '/entities/*',
      summary: 'Snapshot of an entity (legacy): the latest of each aspect, key aspect first',
      scope: 'read',
      parameters: [{ name: 'urn', in: 'path', required: true, description: 'url-encoded urn' }],
      handler: async (req) => {
        const parsed = parseUrn(registry, req.params.urn, 'urn')
        return { body: snapshotView(registry, parsed, await store.latest(parsed.urn)) }
      },
    },
  ]
}
