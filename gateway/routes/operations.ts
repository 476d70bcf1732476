/**
 * Route 11, restore indices (`POST /operations?action=restoreIndices`, also under `/gms` and on `/aspects`), and
 * rollback of an ingestion run (`POST /operations?action=rollback`). Both need an admin bearer token.
 */
import { Type } from 'typebox'
import { restoreIndices } from '../../model/services/restore.ts'
import { forgetRun, rollbackItems } from '../../model/services/rollback.ts'
import type { GatewayDeps } from '../deps.ts'
import type { RouteSpec } from '../http/route.ts'

export const RestoreBody = Type.Object({
  urn: Type.Optional(Type.String({ description: 'restore this urn only' })),
  aspect: Type.Optional(Type.String({ description: 'restrict to this aspect' })),
  urnLike: Type.Optional(Type.String({ description: 'SQL LIKE pattern over urns (% any run, _ one character)' })),
  start: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'row to begin at (default 0)' })),
  batchSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'rows to restore (default 10)' })),
})
export const RollbackBody = Type.Object({
  runId: Type.String({ minLength: 1 }),
  dryRun: Type.Optional(Type.Boolean({ description: 'only say what would be rolled back' })),
})

export function operationsRoutes({ model, writer }: GatewayDeps): RouteSpec[] {
  const restore: RouteSpec = {
    method: 'POST',
    path: '/operations',
    action: 'restoreIndices',
    aliases: ['/gms/operations'],
    summary: 'Rebuild search, browse and relationship indexes from the stored rows (admin token)',
    scope: 'admin',
    body: 'optional',
    requestSchema: RestoreBody,
    example: { request: { urn: 'urn:svc:dataset:(urn:svc:dataPlatform:foo,bar,PROD)' } },
    handler: async function restoreIndicesNow(req) {
      const body = req.body as Type.Static<typeof RestoreBody>
      const args = { urn: body.urn, aspect: body.aspect, urnLike: body.urnLike, start: body.start ?? 0, batchSize: body.batchSize ?? 10 }
      const result = await restoreIndices(model, (items) => writer.submit(items, req.actor), args)
      return { body: { value: { args, result } } }
    },
  }
  return [
    restore,
    { ...restore, path: '/aspects', aliases: [] },
    {
      method: 'POST',
      path: '/operations',
      action: 'rollback',
      aliases: ['/gms/operations'],
      summary: 'Roll back an ingestion run: its aspects go back to the version before it, or away (admin token)',
      scope: 'admin',
      body: true,
      requestSchema: RollbackBody,
      handler: async function rollbackRun(req) {
        const body = req.body as Type.Static<typeof RollbackBody>
        const items = await rollbackItems(model.redis, model.keys, model.registry, body.runId)
        if (body.dryRun) return { body: { value: { runId: body.runId, dryRun: true, entities: items.map((i) => i.urn) } } }
        const results = items.length > 0 ? await writer.submit(items, req.actor) : []
        await forgetRun(model.redis, model.keys, body.runId)
        return { body: { value: { runId: body.runId, entities: items.length, aspectsReverted: results.reduce((n, r) => n + r.changes, 0) } } }
      },
    },
  ]
}
