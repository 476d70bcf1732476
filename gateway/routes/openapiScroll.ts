/**
 * Upstream's v3 scroll routes (GenericEntitiesController.getEntities, EntityController.scrollEntities): every
 * entity matching a query, a page at a time, each page naming the scroll id of the next. Here the scroll is a
 * keyset cursor on urn order (model/search/scroll.ts): no result window (upstream's answers 500 past 10,000), and a
 * full scroll answers each entity present throughout exactly once while writes go on. Sorting is by urn only
 * (ascending or descending); soft-deleted entities are not in the search index, so a scroll never answers them.
 */
import { Type } from 'typebox'
import { fail } from '../../model/errors.ts'
import type { EntitySpec } from '../../model/entities.ts'
import { MAX_PAGE } from '../../model/search/service.ts'
import type { ScrollOrder } from '../../model/search/scroll.ts'
import { parseUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { ListParam } from '../http/params.ts'
import type { RouteRequest, RouteSpec } from '../http/route.ts'
import { entityNameOnly } from '../openapi/paths.ts'
import { readEntityV3, resolveAspects } from '../openapi/read.ts'
import { requestedAspects } from './openapiEntities.ts'
import { ScrollBody } from '../openapi/schemas.ts'

const BASE = '/openapi/v3/entity'
const SCROLL_PARAMETERS = {
  query: Type.Optional(Type.String({ default: '*', description: 'search text (default *: everything)' })),
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE, default: 10, description: `entities per page (default 10, at most ${MAX_PAGE})` })),
  scrollId: Type.Optional(Type.String({ description: 'the scrollId of the previous page' })),
  sortCriteria: Type.Optional(ListParam('urn (the only sort: a keyset scroll runs in urn order)')),
  sort: Type.Optional(ListParam('same as sortCriteria')),
  sortOrder: Type.Optional(Type.Union([Type.Literal('ASCENDING'), Type.Literal('DESCENDING')], { default: 'ASCENDING', description: 'ASCENDING (default) or DESCENDING (any case)' })),
  systemMetadata: Type.Optional(Type.Boolean({ default: false, description: 'true: include each aspect\'s systemMetadata and auditStamp (true or false, any case)' })),
  includeSoftDelete: Type.Optional(Type.Boolean({ default: false, description: 'accepted; soft-deleted entities are not in the search index, so never answered' })),
}
export const ScrollQuery = Type.Object(SCROLL_PARAMETERS)
export const TypeScrollQuery = Type.Object({
  ...SCROLL_PARAMETERS,
  aspects: Type.Optional(ListParam('aspect names to include (default all)')),
  aspectNames: Type.Optional(ListParam('same as aspects')),
})
export const EntityNamePath = Type.Object({ entityName: Type.String({ description: 'entity type' }) })

/** The scroll parameters as params.ts read them (defaults applied). */
interface Scroll { query: string; count: number; scrollId?: string; sortCriteria?: string[]; sort?: string[]; sortOrder: ScrollOrder; systemMetadata: boolean }

/** Order of a scroll; only urn sorts (sort, sortCriteria). */
function orderOf(query: Scroll): ScrollOrder {
  for (const field of [...(query.sortCriteria ?? []), ...(query.sort ?? [])]) {
    if (field !== 'urn') throw fail('INVALID_REQUEST', `this service scrolls in urn order only; sort field "${field}" is not supported`, [{ path: 'sortCriteria', message: 'must be urn' }])
  }
  return query.sortOrder
}

export function openapiScrollRoutes(deps: GatewayDeps): RouteSpec[] {
  const { model } = deps
  const scroll = async (req: RouteRequest, entities: readonly EntitySpec[], aspects: string[] | undefined) => {
    const query = req.query as unknown as Scroll
    const page = await model.search.scroll({
      entities,
      input: query.query,
      count: query.count,
      order: orderOf(query),
      scrollId: query.scrollId || undefined,
    })
    const withSystemMetadata = query.systemMetadata
    const all = !aspects || aspects.length === 0
    const read = await Promise.all(page.urns.map((urn) => {
      const parsed = parseUrn(model.registry, urn)
      return readEntityV3(model, parsed, resolveAspects(model, parsed, aspects), withSystemMetadata, all)
    }))
    return { body: { ...(page.scrollId ? { scrollId: page.scrollId } : {}), entities: read.filter((e) => e !== null) } }
  }
  return [
    {
      method: 'GET', path: `${BASE}/*`, docPath: `${BASE}/{entityName}`, match: entityNameOnly, scope: 'read',
      summary: 'Scroll the entities of a type matching a query, in urn order: {"scrollId"?, "entities": [...]}; no result window',
      pathParam: EntityNamePath, query: TypeScrollQuery,
      handler: async function scrollType(req) { return scroll(req, [model.registry.entity(req.params.entityName!)], requestedAspects(req.query)) },
    },
    {
      method: 'POST', path: `${BASE}/scroll`, body: 'optional', requestSchema: ScrollBody, scope: 'read',
      summary: 'Scroll entities of several types (body {"entities"?: [types], "aspects"?: [names]}; default every type) in urn order',
      query: ScrollQuery,
      handler: async function scrollTypes(req) {
        const body = req.body as { entities?: unknown; aspects?: unknown }
        const names = (key: 'entities' | 'aspects'): string[] | undefined => {
          const list = body[key]
          if (list === undefined || list === null) return undefined
          if (!Array.isArray(list) || !list.every((n) => typeof n === 'string')) throw fail('INVALID_REQUEST', `${key} must be a list of names`, [{ path: key, message: 'not a list of strings' }])
          return list as string[]
        }
        const types = names('entities')
        const entities = types ? [...new Set(types.map((n) => model.registry.entity(n)))] : model.registry.entities
        return scroll(req, entities, names('aspects'))
      },
    },
  ]
}
