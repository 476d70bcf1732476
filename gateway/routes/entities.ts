/**
 * Routes 2 and 4 (legacy): snapshot ingest `POST /entities?action=ingest` and snapshot read `GET /entities/<urn>`;
 * and `POST /entities?action=delete` (`{urn}`), the hard delete upstream's emitter sends for a DELETE of a key aspect.
 */
import { Type } from 'typebox'
import type { WriteItem } from '../../model/jobs.ts'
import { parseUrn } from '../../model/urn.ts'
import { IngestSchema, parseIngest, snapshotView } from '../../model/snapshot.ts'
import type { GatewayDeps } from '../deps.ts'
import { checkHardDelete } from '../http/auth.ts'
import type { RouteSpec } from '../http/route.ts'
import { unknownFieldsReport } from '../http/writes.ts'

export const DeleteBody = Type.Object({
  urn: Type.String({ description: 'the entity to delete' }),
  aspectName: Type.Optional(Type.String({ description: 'delete only this aspect (all its versions)' })),
})

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
      nullIsAbsent: true,
      example: {
        request: { entity: { value: { 'com.svc.metadata.snapshot.TagSnapshot': { urn: 'urn:svc:tag:Engineering', aspects: [{ 'com.svc.tag.TagProperties': { name: 'Engineering', description: 'Owned by the Eng org.' } }] } } } },
        response: {},
      },
      handler: async function ingestSnapshot(req) {
        const unknown: string[] = []
        const item = parseIngest(registry, req.body, 'entity', unknown)
        await writer.submit([item], req.actor)
        return { body: unknownFieldsReport(unknown) }
      },
    },
    {
      method: 'POST',
      path: '/entities',
      action: 'delete',
      summary: 'Hard delete of an entity (every aspect, version, edge and index entry), or of one aspect with aspectName; answers once applied',
      scope: 'write',
      body: true,
      requestSchema: DeleteBody,
      requestError: 'the body must be {"urn": ...}',
      example: { request: { urn: 'urn:svc:tag:Engineering' }, response: { value: { urn: 'urn:svc:tag:Engineering', rows: 2 } } },
      handler: async function deleteEntity(req) {
        const body = req.body as Type.Static<typeof DeleteBody>
        const parsed = parseUrn(registry, body.urn, 'urn')
        const base = { urn: parsed.urn, entityType: parsed.entity.name }
        const item: WriteItem = body.aspectName === undefined
          ? { op: 'deleteEntity', ...base }
          : { op: 'delete', ...base, aspect: registry.aspectOf(parsed.entity, body.aspectName).name }
        checkHardDelete(model.config, registry, req, item, 'urn')
        const [result] = await writer.submit([item], req.actor)
        return { body: { value: { urn: parsed.urn, rows: result!.changes } } }
      },
    },
    {
      method: 'GET',
      path: '/entities/*',
      summary: 'Snapshot of an entity (legacy): the latest of each aspect, key aspect first',
      scope: 'read',
      handler: async function readSnapshot(req) {
        const parsed = parseUrn(registry, req.params.urn, 'urn')
        return { body: snapshotView(registry, parsed, await store.latest(parsed.urn)) }
      },
    },
  ]
}
