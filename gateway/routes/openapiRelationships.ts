/**
 * Upstream's v3 relationship and lineage scrolls (datahub-project/datahub, openapi-servlet:
 * GenericRelationshipController.getRelationshipsByEntity under `/openapi/v3/relationship`, and
 * v3 LineageController.scrollLineage): edges as `{"relationshipType", "source": {"urn", "entityType"},
 * "destination": {"urn", "entityType"}}`, a page at a time (`{"results": [...], "scrollId"?}`). The edges of the
 * entities asked for are read from the edge store; the scroll id is the offset of the next page. A lineage scroll
 * needs anchor urns here (there is no catalogue-wide edge index to walk).
 */
import { fail } from '../../model/errors.ts'
import { lineageSteps } from '../../model/lineage.ts'
import type { Direction } from '../../model/store/edgeStore.ts'
import { parseUrn, urnTypeSegment } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { intParam, listParam, stringParam } from '../http/params.ts'
import type { Query, RouteSpec } from '../http/route.ts'
import { urnOfPath } from './openapiEntities.ts'
import { entityPath } from '../openapi/paths.ts'

const MAX_COUNT = 10_000

interface Edge { relationshipType: string; source: string; destination: string }

const node = (urn: string) => ({ urn, entityType: urnTypeSegment(urn) ?? '' })
const shaped = (e: Edge) => ({ relationshipType: e.relationshipType, source: node(e.source), destination: node(e.destination) })

function offsetOf(query: Query): number {
  const scrollId = stringParam(query, 'scrollId')
  if (!scrollId) return 0
  const decoded = Buffer.from(scrollId, 'base64url').toString('utf8')
  if (!/^o:\d+$/.test(decoded) || !Number.isSafeInteger(Number(decoded.slice(2)))) throw fail('INVALID_REQUEST', 'scrollId is not a scroll id this service answered', [{ path: 'scrollId', message: 'invalid' }])
  return Number(decoded.slice(2))
}

/** One page of `edges` at the request's scroll position. */
function page(query: Query, edges: Edge[]) {
  const count = intParam(query, 'count', 10, 0, MAX_COUNT)!
  const from = offsetOf(query)
  const next = from + count
  return { ...(next < edges.length ? { scrollId: Buffer.from(`o:${next}`).toString('base64url') } : {}), results: edges.slice(from, next).map(shaped) }
}

export function openapiRelationshipRoutes(deps: GatewayDeps): RouteSpec[] {
  const { registry, edges } = deps.model
  const known = new Set(registry.relationshipNames)
  const typesOf = (query: Query, name: string, fallback: readonly string[]): string[] => {
    const asked = [...(listParam(query, name) ?? []), ...(listParam(query, `${name}[]`) ?? [])].filter((t) => t !== '*')
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
  const directionOf = (query: Query, allowed: string[]): string => {
    const direction = (stringParam(query, 'direction') ?? 'OUTGOING').toUpperCase()
    if (!allowed.includes(direction)) throw fail('INVALID_REQUEST', `direction must be ${allowed.join(' or ')}`, [{ path: 'direction', message: `got ${direction}` }])
    return direction
  }
  return [
    {
      method: 'GET', path: '/openapi/v3/relationship/*', docPath: '/openapi/v3/relationship/{entityName}/{urn}', match: entityPath(registry), scope: 'read',
      summary: 'Scroll the relationships of an entity: {"results": [{"relationshipType", "source", "destination"}], "scrollId"?}',
      parameters: [
        { name: 'entityName', in: 'path', required: true, description: 'entity type' },
        { name: 'urn', in: 'path', required: true, description: 'the urn (url-encoded)' },
        { name: 'relationshipType', in: 'query', description: 'relationship types (repeatable, or relationshipType[]; default all)' },
        { name: 'direction', in: 'query', description: 'OUTGOING (default) or INCOMING' },
        { name: 'count', in: 'query', description: 'default 10' },
        { name: 'scrollId', in: 'query', description: 'the scrollId of the previous page' },
      ],
      handler: async (req) => {
        const parsed = urnOfPath(deps, req.params)
        const direction = directionOf(req.query, ['OUTGOING', 'INCOMING']) as Direction
        return { body: page(req.query, await edgesOf(parsed.urn, direction, typesOf(req.query, 'relationshipType', registry.relationshipNames))) }
      },
    },
    {
      method: 'POST', path: '/openapi/v3/lineage/scroll', body: 'optional', scope: 'read',
      summary: 'Scroll the lineage edges of anchor urns (body {"urns": [...]} or {"entityUrn"}): direction OUTGOING/INCOMING (edges as stored) or UPSTREAM/DOWNSTREAM',
      parameters: [
        { name: 'relationshipTypes', in: 'query', description: 'lineage relationship types (repeatable; default every lineage relationship)' },
        { name: 'direction', in: 'query', description: 'OUTGOING (default), INCOMING, UPSTREAM or DOWNSTREAM' },
        { name: 'count', in: 'query', description: 'default 10' },
        { name: 'scrollId', in: 'query', description: 'the scrollId of the previous page' },
      ],
      handler: async (req) => {
        const body = (req.body ?? {}) as { urns?: unknown; entityUrn?: unknown }
        const anchors = [...(Array.isArray(body.urns) ? body.urns : []), ...(body.entityUrn !== undefined ? [body.entityUrn] : [])]
        if (anchors.length === 0) throw fail('INVALID_REQUEST', 'a lineage scroll needs anchor urns here: body {"urns": [...]} (or {"entityUrn": ...})', [{ path: 'urns', message: 'required' }])
        const urns = anchors.map((u, i) => parseUrn(registry, u, `urns[${i}]`).urn)
        const lineageTypes = [...registry.lineage.upstream, ...registry.lineage.downstream]
        const types = typesOf(req.query, 'relationshipTypes', lineageTypes)
        const direction = directionOf(req.query, ['OUTGOING', 'INCOMING', 'UPSTREAM', 'DOWNSTREAM'])
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
        return { body: page(req.query, found) }
      },
    },
  ]
}
