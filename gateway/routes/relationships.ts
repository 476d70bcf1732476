/** Route 10 (`GET /relationships`) and, beyond the 12 core routes, `GET /lineage` (multi-hop impact analysis). */
import { Type } from 'typebox'
import { fail } from '../../model/errors.ts'
import { lineageHop, walkLineage, type LineageDirection, type LineageReads } from '../../model/services/lineage.ts'
import type { Direction } from '../../model/store/edgeStore.ts'
import { parseUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { LineageDirectionParam, ListParam, MaxHopsParam, UrnParam } from '../http/params.ts'
import type { RouteSpec } from '../http/route.ts'

const MAX_LINEAGE_ENTITIES = 10_000

export const RelationshipsQuery = Type.Object({
  urn: UrnParam,
  direction: Type.Union([Type.Literal('INCOMING'), Type.Literal('OUTGOING')], { description: 'INCOMING or OUTGOING (any case)' }),
  types: Type.Optional(ListParam('relationship names (default: all)')),
  start: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'first relationship of the page' })),
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 100, description: 'relationships in the page, at most 10000' })),
})
export const LineageQuery = Type.Object({
  urn: UrnParam,
  direction: LineageDirectionParam,
  maxHops: Type.Optional(MaxHopsParam),
  types: Type.Optional(ListParam('relationship names to follow (default: every lineage relationship, e.g. DownstreamOf, Consumes, Produces)')),
})

export function relationshipRoutes({ model }: GatewayDeps): RouteSpec[] {
  const { registry, edges, store } = model
  const known = new Set(registry.relationshipNames)
  const typesOf = (types: string[]): string[] => {
    const unknown = types.filter((t) => !known.has(t))
    if (unknown.length > 0) {
      throw fail('INVALID_REQUEST', `unknown relationship type ${unknown.join(', ')}`, [{ path: 'types', message: `known: ${registry.relationshipNames.join(', ')}` }])
    }
    return [...new Set(types)]
  }
  return [
    {
      method: 'GET',
      path: '/relationships',
      summary: 'Entities on the other side of an entity\'s relationships (OUTGOING: what it points to; INCOMING: what points to it)',
      scope: 'read',
      query: RelationshipsQuery,
      handler: async function readRelationships(req) {
        const query = req.query as Type.Static<typeof RelationshipsQuery>
        const parsed = parseUrn(registry, query.urn, 'urn')
        const direction: Direction = query.direction
        const types = typesOf(query.types ?? [...registry.relationshipNames])
        const start = query.start!
        const count = query.count!
        const page = await edges.page(parsed.urn, direction, types, start, count)
        return {
          body: {
            start, count: page.relationships.length, total: page.total,
            entities: page.relationships.map((r) => r.entity),
            relationships: page.relationships,
          },
        }
      },
    },
    {
      method: 'GET',
      path: '/lineage',
      summary: 'Lineage several hops upstream or downstream (every lineage relationship by default: datasets, jobs, charts, columns), cycle-safe',
      scope: 'read',
      query: LineageQuery,
      handler: async function readLineage(req) {
        const query = req.query as Type.Static<typeof LineageQuery>
        const parsed = parseUrn(registry, query.urn, 'urn')
        const direction: LineageDirection = query.direction
        const maxHops = query.maxHops!
        const types = query.types ? typesOf(query.types) : undefined
        const reads: LineageReads = {
          neighbours: (urns, dir, names) => edges.neighbours(urns, dir, names),
          latestValues: async (urns) => (await store.latestMany(urns)).map((m) => new Map([...m].map(([k, env]) => [k, env.value]))),
        }
        const result = await walkLineage(parsed.urn, maxHops, MAX_LINEAGE_ENTITIES,
          (frontier) => lineageHop(registry, frontier, direction, types, reads))
        return { body: { urn: parsed.urn, direction, maxHops, total: result.entities.length, truncated: result.truncated, entities: result.entities } }
      },
    },
  ]
}
