/** Route 10 (`GET /relationships`) and, beyond the 12 core routes, `GET /lineage` (multi-hop impact analysis). */
import { fail } from '../../model/errors.ts'
import { lineageHop, walkLineage, type LineageDirection, type LineageReads } from '../../model/lineage.ts'
import type { Direction } from '../../model/store/edgeStore.ts'
import { parseUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { intParam, listParam, requiredParam } from '../http/params.ts'
import type { Query, RouteSpec } from '../http/route.ts'

const MAX_LINEAGE_ENTITIES = 10_000

function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[], fallback?: T): T {
  const raw = query[name]
  const value = (Array.isArray(raw) ? raw[0] : raw)?.toUpperCase() ?? fallback
  if (!value || !(allowed as readonly string[]).includes(value)) {
    throw fail('INVALID_REQUEST', `query parameter "${name}" must be one of: ${allowed.join(', ')}`, [{ path: name, message: value ? `got ${value}` : 'required' }])
  }
  return value as T
}

export function relationshipRoutes({ model }: GatewayDeps): RouteSpec[] {
  const { registry, edges, store } = model
  const known = new Set(registry.relationshipNames)
  const typesOf = (query: Query, fallback: string[]): string[] => {
    const types = listParam(query, 'types') ?? fallback
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
      parameters: [
        { name: 'urn', in: 'query', required: true, description: 'the entity' },
        { name: 'direction', in: 'query', required: true, description: 'INCOMING or OUTGOING' },
        { name: 'types', in: 'query', description: 'relationship names: List(A,B), repeated, or comma-separated (default: all)' },
        { name: 'start', in: 'query', description: 'default 0' },
        { name: 'count', in: 'query', description: 'default 100, at most 10000' },
      ],
      handler: async (req) => {
        const parsed = parseUrn(registry, requiredParam(req.query, 'urn'), 'urn')
        const direction = oneOf<Direction>(req.query, 'direction', ['INCOMING', 'OUTGOING'])
        const types = typesOf(req.query, [...registry.relationshipNames])
        const start = intParam(req.query, 'start', 0)!
        const count = intParam(req.query, 'count', 100, 0, 10_000)!
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
      parameters: [
        { name: 'urn', in: 'query', required: true, description: 'the entity' },
        { name: 'direction', in: 'query', required: true, description: 'UPSTREAM or DOWNSTREAM' },
        { name: 'maxHops', in: 'query', description: 'default 3, at most 20' },
        { name: 'types', in: 'query', description: 'relationship names to follow (default: every lineage relationship, e.g. DownstreamOf, Consumes, Produces)' },
      ],
      handler: async (req) => {
        const parsed = parseUrn(registry, requiredParam(req.query, 'urn'), 'urn')
        const direction = oneOf<LineageDirection>(req.query, 'direction', ['UPSTREAM', 'DOWNSTREAM'])
        const maxHops = intParam(req.query, 'maxHops', 3, 1, 20)!
        const types = listParam(req.query, 'types') ? typesOf(req.query, []) : undefined
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
