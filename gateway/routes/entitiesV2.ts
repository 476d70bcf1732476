/** Route 3: `GET /entitiesV2/<urn>` (current entity read), and the batch form `GET /entitiesV2?ids=List(...)`. */
import { Type } from 'typebox'
import { parseUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { ListParam } from '../http/params.ts'
import type { RouteSpec } from '../http/route.ts'
import { aspectsToRead, entityV2View } from '../views/entity.ts'

const MAX_BATCH = 1000

const AspectsParam = ListParam('limit the aspects returned')
export const EntityQuery = Type.Object({ aspects: Type.Optional(AspectsParam) })
export const EntitiesQuery = Type.Object({
  ids: ListParam('the urns (url-encoded inside List(...))', { minItems: 1, maxItems: MAX_BATCH }),
  aspects: Type.Optional(AspectsParam),
})

export const EntityV2Response = Type.Object({
  urn: Type.String(),
  entityName: Type.String(),
  aspects: Type.Record(Type.String(), Type.Object({
    name: Type.String(), version: Type.Integer(), value: Type.Unknown(),
    created: Type.Object({ time: Type.Integer(), actor: Type.String() }),
    systemMetadata: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'runId, lastObserved, version (distinct values so far: what If-Version-Match compares)' })),
  })),
})

export function entitiesV2Routes({ model }: GatewayDeps): RouteSpec[] {
  const { registry, store } = model
  return [
    {
      method: 'GET',
      path: '/entitiesV2/*',
      summary: 'Latest aspects of an entity (the key aspect always included; an unknown urn answers its key alone)',
      scope: 'read',
      query: EntityQuery,
      responseSchema: EntityV2Response,
      handler: async function readEntity(req) {
        const parsed = parseUrn(registry, req.params.urn!, 'urn')
        const requested = (req.query as Type.Static<typeof EntityQuery>).aspects
        const latest = await store.latest(parsed.urn, aspectsToRead(registry, parsed, requested))
        return { body: entityV2View(registry, parsed, latest, requested, Date.now()) }
      },
    },
    {
      method: 'GET',
      path: '/entitiesV2',
      summary: 'Latest aspects of several entities: ids=List(<urn>,...)',
      scope: 'read',
      query: EntitiesQuery,
      handler: async function readEntities(req) {
        const { ids, aspects: requested } = req.query as Type.Static<typeof EntitiesQuery>
        const parsed = ids.map((id, i) => parseUrn(registry, id, `ids[${i}]`))
        const latest = await store.latestMany(parsed.map((p) => p.urn))
        const now = Date.now()
        const results: Record<string, unknown> = {}
        parsed.forEach((p, i) => { results[p.urn] = entityV2View(registry, p, latest[i]!, requested, now) })
        return { body: { results, statuses: {}, errors: {} } }
      },
    },
  ]
}
