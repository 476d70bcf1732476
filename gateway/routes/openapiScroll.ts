/**
 * Upstream's v3 scroll routes (GenericEntitiesController.getEntities, EntityController.scrollEntities): every
 * entity matching a query, a page at a time, each page naming the scroll id of the next. Here the scroll is a
 * keyset cursor on urn order (model/search/scroll.ts): no result window (upstream's answers 500 past 10,000), and a
 * full scroll answers each entity present throughout exactly once while writes go on. Sorting is by urn only
 * (ascending or descending); soft-deleted entities are not in the search index, so a scroll never answers them.
 */
import { fail } from '../../model/errors.ts'
import type { EntitySpec } from '../../model/entities.ts'
import { MAX_PAGE } from '../../model/search/service.ts'
import type { ScrollOrder } from '../../model/search/scroll.ts'
import { parseUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { boolParam, intParam, listParam, stringParam } from '../http/params.ts'
import type { Query, RouteSpec } from '../http/route.ts'
import { entityNameOnly } from '../openapi/paths.ts'
import { readEntityV3, resolveAspects } from '../openapi/read.ts'
import { requestedAspects } from './openapiEntities.ts'

const BASE = '/openapi/v3/entity'
const queryParam = (name: string, description: string) => ({ name, in: 'query' as const, description })
const SCROLL_PARAMETERS = [
  queryParam('query', 'search text (default *: everything)'),
  queryParam('count', 'entities per page (default 10, at most 10000)'),
  queryParam('scrollId', 'the scrollId of the previous page'),
  queryParam('sortCriteria', 'urn (the only sort: a keyset scroll runs in urn order)'),
  queryParam('sortOrder', 'ASCENDING (default) or DESCENDING'),
  queryParam('systemMetadata', 'true: include each aspect\'s systemMetadata and auditStamp'),
  queryParam('includeSoftDelete', 'accepted; soft-deleted entities are not in the search index, so never answered'),
]

/** Order of a scroll; only urn sorts (sort, sortCriteria). */
function orderOf(query: Query): ScrollOrder {
  for (const field of [...(listParam(query, 'sortCriteria') ?? []), ...(listParam(query, 'sort') ?? [])]) {
    if (field !== 'urn') throw fail('INVALID_REQUEST', `this service scrolls in urn order only; sort field "${field}" is not supported`, [{ path: 'sortCriteria', message: 'must be urn' }])
  }
  const order = (stringParam(query, 'sortOrder') ?? 'ASCENDING').toUpperCase()
  if (order !== 'ASCENDING' && order !== 'DESCENDING') throw fail('INVALID_REQUEST', 'sortOrder must be ASCENDING or DESCENDING', [{ path: 'sortOrder', message: `got ${order}` }])
  return order
}

export function openapiScrollRoutes(deps: GatewayDeps): RouteSpec[] {
  const { model } = deps
  const scroll = async (query: Query, entities: readonly EntitySpec[], aspects: string[] | undefined) => {
    const page = await model.search.scroll({
      entities,
      input: stringParam(query, 'query') ?? '*',
      count: intParam(query, 'count', 10, 0, MAX_PAGE)!,
      order: orderOf(query),
      scrollId: stringParam(query, 'scrollId') || undefined,
    })
    boolParam(query, 'includeSoftDelete', false)
    const withSystemMetadata = boolParam(query, 'systemMetadata', false)
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
      parameters: [{ name: 'entityName', in: 'path', required: true, description: 'entity type' }, ...SCROLL_PARAMETERS,
        queryParam('aspects', 'aspect names to include (repeatable; default all)'), queryParam('aspectNames', 'same as aspects')],
      handler: async (req) => scroll(req.query, [model.registry.entity(req.params.entityName!)], requestedAspects(req.query)),
    },
    {
      method: 'POST', path: `${BASE}/scroll`, body: 'optional', scope: 'read',
      summary: 'Scroll entities of several types (body {"entities"?: [types], "aspects"?: [names]}; default every type) in urn order',
      parameters: SCROLL_PARAMETERS,
      handler: async (req) => {
        const body = req.body as { entities?: unknown; aspects?: unknown }
        const names = (key: 'entities' | 'aspects'): string[] | undefined => {
          const list = body[key]
          if (list === undefined || list === null) return undefined
          if (!Array.isArray(list) || !list.every((n) => typeof n === 'string')) throw fail('INVALID_REQUEST', `${key} must be a list of names`, [{ path: key, message: 'not a list of strings' }])
          return list as string[]
        }
        const types = names('entities')
        const entities = types ? [...new Set(types.map((n) => model.registry.entity(n)))] : model.registry.entities
        return scroll(req.query, entities, names('aspects'))
      },
    },
  ]
}
