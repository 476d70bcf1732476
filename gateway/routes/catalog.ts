/**
 * Small read routes beyond the spec that the catalogue UI (gateway/routes/ui.ts) needs, public to any API client:
 * - `GET /registry`: the model this deployment runs with (entity types, their aspects, search fields and facets,
 *   relationship names), so pages are driven by the registry and a registry file's types need no UI change;
 * - `GET /versions/<urn>?aspect=`: the version history of one aspect (newest first, version 0 the latest);
 * - `GET /lineage/graph`: lineage with its edges, for drawing it (`GET /lineage` lists the entities alone);
 * - `GET /changes/recent`: the latest entries of the change log (the home page's "recently changed").
 */
import { Type } from 'typebox'
import { lastChanges } from '../../model/services/changeLog.ts'
import { fail } from '../../model/errors.ts'
import { edgeDirection, type LineageDirection } from '../../model/services/lineage.ts'
import { parseUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { LineageDirectionParam, ListParam, MaxHopsParam, UrnParam } from '../http/params.ts'
import type { RouteSpec } from '../http/route.ts'

const MAX_VERSIONS = 100
const MAX_GRAPH_NODES = 2000
const MAX_CHANGES = 200

const SearchFieldSchema = Type.Object({
  name: Type.String(), type: Type.String({ description: 'TEXT, KEYWORD, URN, BOOLEAN or COUNT' }),
  boost: Type.Number(), queryByDefault: Type.Boolean(), autocomplete: Type.Boolean(), facet: Type.Boolean(),
})
export const VersionsQuery = Type.Object({ aspect: Type.String({ minLength: 1, description: 'a versioned aspect of the entity' }) })
export const LineageGraphQuery = Type.Object({
  urn: UrnParam,
  direction: LineageDirectionParam,
  maxHops: Type.Optional(MaxHopsParam),
  types: Type.Optional(ListParam('relationship names to follow (default DownstreamOf)')),
})
export const RecentChangesQuery = Type.Object({
  count: Type.Integer({ minimum: 1, maximum: MAX_CHANGES, default: 20, description: `entries (default 20, at most ${MAX_CHANGES})` }),
})
export const RegistryResponse = Type.Object({
  urnPrefix: Type.String({ description: 'e.g. urn:svc:' }),
  relationships: Type.Array(Type.String()),
  entities: Type.Array(Type.Object({
    name: Type.String(),
    keyAspect: Type.String(),
    keyFields: Type.Array(Type.String()),
    aspects: Type.Array(Type.Object({ name: Type.String(), recordName: Type.String(), timeseries: Type.Boolean() })),
    searchFields: Type.Array(SearchFieldSchema),
    relationships: Type.Object({ outgoing: Type.Array(Type.String()), incoming: Type.Array(Type.String()) }),
  })),
})
const Stamp = Type.Object({ time: Type.Integer(), actor: Type.String() })
export const VersionsResponse = Type.Object({
  urn: Type.String(),
  aspect: Type.String(),
  total: Type.Integer({ description: 'versions stored, the latest included' }),
  versions: Type.Array(Type.Object({ version: Type.Integer({ description: '0 = latest, 1 = oldest' }), created: Stamp, value: Type.Unknown() }),
    { description: `newest first, at most ${MAX_VERSIONS}` }),
})
export const LineageGraphResponse = Type.Object({
  urn: Type.String(),
  direction: Type.String(),
  maxHops: Type.Integer(),
  nodes: Type.Array(Type.Object({ urn: Type.String(), hops: Type.Integer() })),
  edges: Type.Array(Type.Object({ from: Type.String({ description: 'the derived entity' }), to: Type.String({ description: 'its source' }), type: Type.String() })),
  truncated: Type.Boolean({ description: `more than ${MAX_GRAPH_NODES} entities: the walk stopped` }),
})

export const RecentChangesResponse = Type.Object({
  changes: Type.Array(Type.Object({
    urn: Type.String(), entityType: Type.String(), aspectName: Type.String(),
    changeType: Type.String({ description: 'UPSERT, DELETE or RESTATE' }), created: Stamp,
  }), { description: 'newest first, across every shard' }),
})

/** One change-log entry as `GET /changes/recent` lists it (a malformed `created` reads as time 0). */
function recentChange(fields: Record<string, string>) {
  let created = { time: 0, actor: '' }
  try { created = { ...created, ...(JSON.parse(fields.created ?? '{}') as typeof created) } } catch { /* kept as time 0 */ }
  return { urn: fields.entityUrn ?? '', entityType: fields.entityType ?? '', aspectName: fields.aspectName ?? '', changeType: fields.changeType ?? '', created }
}

export function catalogRoutes({ model }: GatewayDeps): RouteSpec[] {
  const { registry, store, edges, redis, keys } = model
  const registryBody = {
    urnPrefix: registry.urnPrefix,
    relationships: [...registry.relationshipNames],
    entities: registry.entities.map((entity) => ({
      name: entity.name,
      keyAspect: entity.keyAspect,
      keyFields: [...entity.keyFields],
      aspects: [entity.keyAspect, ...entity.aspects].map((name) => {
        const aspect = registry.findAspect(name)!
        return { name, recordName: aspect.recordName, timeseries: !!aspect.timeseries }
      }),
      searchFields: [...registry.searchFields(entity).values()].map((f) => ({
        name: f.name, type: f.type, boost: f.boost, queryByDefault: f.queryByDefault, autocomplete: f.autocomplete, facet: f.facet,
      })),
      relationships: { outgoing: [...registry.relationshipTypes(entity).outgoing], incoming: [...registry.relationshipTypes(entity).incoming] },
    })),
  }
  const registryJson = JSON.stringify(registryBody)
  const known = new Set(registry.relationshipNames)
  return [
    {
      method: 'GET', path: '/registry', scope: 'read',
      summary: 'The registry: entity types with their aspects, search fields (facets, autocomplete) and relationship names',
      responseSchema: RegistryResponse,
      handler: async function readRegistry() { return { body: registryBody, raw: registryJson } },
    },
    {
      method: 'GET', path: '/versions/*', scope: 'read',
      summary: 'Version history of one aspect of an entity, newest first (version 0 is the latest, 1 the oldest)',
      query: VersionsQuery,
      responseSchema: VersionsResponse,
      handler: async function readVersions(req) {
        const parsed = parseUrn(registry, req.params.urn!, 'urn')
        const spec = registry.aspectOf(parsed.entity, (req.query as Type.Static<typeof VersionsQuery>).aspect)
        if (spec.timeseries) throw fail('INVALID_REQUEST', `${spec.name} is a timeseries aspect: read it with getTimeseriesAspectValues`, [{ path: 'aspect', message: 'timeseries aspects have no versions' }])
        const state = await store.state(parsed.urn)
        const latest = state.latest.get(spec.name)
        const highest = state.versions.get(spec.name) ?? 0
        const wanted: number[] = []
        for (let v = highest; v >= 1 && wanted.length < MAX_VERSIONS - 1; v--) wanted.push(v)
        const older = await Promise.all(wanted.map((v) => store.version(parsed.urn, spec.name, v)))
        const versions = [
          ...(latest ? [{ version: 0, created: latest.created, value: latest.value }] : []),
          ...older.flatMap((env, i) => (env ? [{ version: wanted[i]!, created: env.created, value: env.value }] : [])),
        ]
        return { body: { urn: parsed.urn, aspect: spec.name, total: (latest ? 1 : 0) + highest, versions } }
      },
    },
    {
      method: 'GET', path: '/lineage/graph', scope: 'read',
      summary: 'Lineage several hops upstream or downstream with its edges (for drawing it), cycle-safe',
      query: LineageGraphQuery,
      responseSchema: LineageGraphResponse,
      handler: async function readLineageGraph(req) {
        const query = req.query as Type.Static<typeof LineageGraphQuery>
        const parsed = parseUrn(registry, query.urn, 'urn')
        const direction: LineageDirection = query.direction
        const maxHops = query.maxHops!
        const types = [...new Set(query.types ?? ['DownstreamOf'])]
        const unknown = types.filter((t) => !known.has(t))
        if (unknown.length > 0) throw fail('INVALID_REQUEST', `unknown relationship type ${unknown.join(', ')}`, [{ path: 'types', message: `known: ${registry.relationshipNames.join(', ')}` }])
        // Breadth first, one relationship type at a time so each edge keeps its name; edges always point from the
        // derived entity to its source, whichever way the walk goes.
        const hopsOf = new Map([[parsed.urn, 0]])
        const nodes: { urn: string; hops: number }[] = []
        const found: { from: string; to: string; type: string }[] = []
        let frontier = [parsed.urn]
        let truncated = false
        for (let hops = 1; hops <= maxHops && frontier.length > 0 && !truncated; hops++) {
          const next: string[] = []
          for (const type of types) {
            const lists = await edges.neighbours(frontier, edgeDirection(direction), [type])
            lists.forEach((list, i) => {
              for (const other of list) {
                const here = frontier[i]!
                if (!hopsOf.has(other)) {
                  if (nodes.length >= MAX_GRAPH_NODES) { truncated = true; continue }
                  hopsOf.set(other, hops)
                  nodes.push({ urn: other, hops })
                  next.push(other)
                }
                found.push(direction === 'UPSTREAM' ? { from: here, to: other, type } : { from: other, to: here, type })
              }
            })
          }
          frontier = next
        }
        const edgesOut = found.filter((e) => hopsOf.has(e.from) && hopsOf.has(e.to))
        return { body: { urn: parsed.urn, direction, maxHops, nodes, edges: edgesOut, truncated } }
      },
    },
    {
      method: 'GET', path: '/changes/recent', scope: 'read',
      summary: 'The latest entries of the change log (every shard merged), newest first',
      query: RecentChangesQuery,
      responseSchema: RecentChangesResponse,
      handler: async function readRecentChanges(req) {
        const { count } = req.query as { count: number }
        const { entries } = await lastChanges(redis, keys, count)
        return { body: { changes: entries.reverse().slice(0, count).map((e) => recentChange(e.fields)) } }
      },
    },
  ]
}
