/**
 * Upstream's v3 relationship and lineage scrolls (datahub-project/datahub, openapi-servlet:
 * GenericRelationshipController.getRelationshipsByEntity under `/openapi/v3/relationship`, and
 * v3 LineageController.scrollLineage): edges as `{"relationshipType", "source": {"urn", "entityType"},
 * "destination": {"urn", "entityType"}}`, a page at a time (`{"results": [...], "scrollId"?}`). The edges of the
 * entities asked for are read from the edge store; the scroll id is the offset of the next page. A lineage scroll
 * needs anchor urns here (there is no catalogue-wide edge index to walk).
 */
import { Type } from 'typebox'
import { fail } from '../../model/errors.ts'
import { lineageSteps } from '../../model/services/lineage.ts'
import type { Direction } from '../../model/store/edgeStore.ts'
import { parseUrn, urnTypeSegment } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { ListParam } from '../http/params.ts'
import type { RouteSpec } from '../http/route.ts'
import { urnOfPath } from './openapiEntities.ts'
import { entityPath } from '../openapi/paths.ts'
import { LineageScrollBody } from '../openapi/schemas.ts'

const MAX_COUNT = 10_000

const direction = (values: string[], description: string) =>
  Type.Optional(Type.Union(values.map((v) => Type.Literal(v)), { default: 'OUTGOING', description: `${description} (any case)` }))
const PAGE_PARAMETERS = {
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_COUNT, default: 10, description: `edges per page (default 10, at most ${MAX_COUNT})` })),
  scrollId: Type.Optional(Type.String({ description: 'the scrollId of the previous page' })),
}
export const RelationshipQuery = Type.Object({
  relationshipType: Type.Optional(ListParam('relationship types (default all)')),
  direction: direction(['OUTGOING', 'INCOMING'], 'OUTGOING (default) or INCOMING'),
  ...PAGE_PARAMETERS,
})
export const LineageScrollQuery = Type.Object({
  relationshipTypes: Type.Optional(ListParam('lineage relationship types (default every lineage relationship)')),
  direction: direction(['OUTGOING', 'INCOMING', 'UPSTREAM', 'DOWNSTREAM'], 'OUTGOING (default), INCOMING, UPSTREAM or DOWNSTREAM'),
  ...PAGE_PARAMETERS,
})
export const RelationshipPath = Type.Object({ entityName: Type.String({ description: 'entity type' }), urn: Type.String({ description: 'the urn (url-encoded)' }) })

/** The page parameters as params.ts read them (defaults applied). */
interface Page { count: number; scrollId?: string }
type Query = Record<string, unknown>

interface Edge { relationshipType: string; source: string; destination: string }

const node = (urn: string) => ({ urn, entityType: urnTypeSegment(urn) ?? '' })
const shaped = (e: Edge) => ({ relationshipType: e.relationshipType, source: node(e.source), destination: node(e.destination) })

function offsetOf(query: Page): number {
  const scrollId = query.scrollId
  if (!scrollId) return 0
  const decoded = Buffer.from(scrollId, 'base64url').toString('utf8')
  if (!/^o:\d+$/.test(decoded) || !Number.isSafeInteger(Number(decoded.slice(2)))) throw fail('INVALID_REQUEST', 'scrollId is not a scroll id this service answered', [{ path: 'scrollId', message: 'invalid' }])
  return Number(decoded.slice(2))
}

/** One page of `edges` at the request's scroll position. */
function page(query: Page, edges: Edge[]) {
  const count = query.count
  const from = offsetOf(query)
  const next = from + count
  return { ...(next < edges.length ? { scrollId: Buffer.from(`o:${next}`).toString('base64url') } : {}), results: edges.slice(from, next).map(shaped) }
}

export function openapiRelationshipRoutes(deps: GatewayDeps): RouteSpec[] {
  const { registry, edges } = deps.model
  const known = new Set(registry.relationshipNames)
  const typesOf = (query: Query, name: string, fallback: readonly string[]): string[] => {
    const asked = ((query[name] as string[] | undefined) ?? []).filter((t) => t !== '*')
    const unknown = asked.filter((t) => !known.has(t))
    if (unknown.length > 0) throw fail('INVALID_REQUEST', `unknown relationship type ${unknown.join(', ')}`, [{ path: name, message: `known: ${registry.relationshipNames.join(', ')}` }])
    return asked.length > 0 ? [...new Set(asked)] : [...fallback]
  }
  /** The edges of `urn` through `types` in `direction`, source -> destination, in type then urn order. */
  const edgesOf = async (urn: string, direction: Direction, types: readonly string[]): Promise<Edge[]> => {
    const found: Edge[] = []
    for (const type of types) {
      const [others] = await edges.neighbours([urn], direction, [type])
      for (const other of [...others!].sort()) found.push(direction === 'OUTGOING' ? { relationshipType: type, source: urn, destination: other } : { relationshipType: type, source: other, destination: urn })
    }
    return found
  }
  return [
    {
      method: 'GET', path: '/openapi/v3/relationship/*', docPath: '/openapi/v3/relationship/{entityName}/{urn}', match: entityPath(registry), scope: 'read',
      summary: 'Scroll the relationships of an entity: {"results": [{"relationshipType", "source", "destination"}], "scrollId"?}',
      pathParam: RelationshipPath, query: RelationshipQuery,
      handler: async function scrollRelationships(req) {
        const parsed = urnOfPath(deps, req.params)
        const direction = req.query.direction as Direction
        return { body: page(req.query as unknown as Page, await edgesOf(parsed.urn, direction, typesOf(req.query, 'relationshipType', registry.relationshipNames))) }
      },
    },
    {
      method: 'POST', path: '/openapi/v3/lineage/scroll', body: 'optional', requestSchema: LineageScrollBody, scope: 'read',
      summary: 'Scroll the lineage edges of anchor urns (body {"urns": [...]} or {"entityUrn"}): direction OUTGOING/INCOMING (edges as stored) or UPSTREAM/DOWNSTREAM',
      query: LineageScrollQuery,
      handler: async function scrollLineage(req) {
        const body = (req.body ?? {}) as { urns?: unknown; entityUrn?: unknown }
        const anchors = [...(Array.isArray(body.urns) ? body.urns : []), ...(body.entityUrn !== undefined ? [body.entityUrn] : [])]
        if (anchors.length === 0) throw fail('INVALID_REQUEST', 'a lineage scroll needs anchor urns here: body {"urns": [...]} (or {"entityUrn": ...})', [{ path: 'urns', message: 'required' }])
        const urns = anchors.map((u, i) => parseUrn(registry, u, `urns[${i}]`).urn)
        const lineageTypes = [...registry.lineage.upstream, ...registry.lineage.downstream]
        const types = typesOf(req.query, 'relationshipTypes', lineageTypes)
        const direction = req.query.direction as string
        const steps = direction === 'UPSTREAM' || direction === 'DOWNSTREAM'
          ? lineageSteps(registry, direction, types)
          : [{ direction: direction as Direction, types }]
        const found: Edge[] = []
        const seen = new Set<string>()
        for (const urn of urns) {
          for (const step of steps) {
            for (const edge of await edgesOf(urn, step.direction, step.types)) {
              const key = `${edge.relationshipType}\u0000${edge.source}\u0000${edge.destination}`
              if (!seen.has(key)) found.push(edge)
              seen.add(key)
            }
          }
        }
        return { body: page(req.query as unknown as Page, found) }
      },
    },
  ]
}
