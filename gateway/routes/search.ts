/** Routes 5, 6 and 7: `POST /entities?action=browse|search|autocomplete`. */
import { Type } from 'typebox'
import { SORT_WINDOW, SORTS } from '../../model/search/sort.ts'
import type { GatewayDeps } from '../deps.ts'
import type { RouteSpec } from '../http/route.ts'

/** Paging numbers: integers from 0 to a billion (larger ones are mistakes, and Redis offsets are 64-bit). */
const Page = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description }))
const Filter = Type.Optional(Type.Unknown({ description: '{or: [{and: [{field, value, condition}]}]}; conditions EQUAL, CONTAIN, START_WITH, END_WITH, GREATER_THAN(_OR_EQUAL_TO), LESS_THAN(_OR_EQUAL_TO)' }))

export const SearchBody = Type.Object({
  input: Type.String({ description: '"*" for everything, <field>:<value> for an exact match, else words (prefix on the last)' }),
  entity: Type.String({ description: 'entity type, e.g. dataset' }),
  start: Page('first hit (default 0)'),
  count: Page('hits per page (default 10, at most 10000)'),
  filter: Filter,
  sort: Type.Optional(Type.Enum([...SORTS], { description: `relevance (default), name (A to Z) or lastChanged (newest first); the last two order the ${SORT_WINDOW} most relevant matches` })),
})
export const AutocompleteBody = Type.Object({
  query: Type.String(),
  entity: Type.String(),
  limit: Page('suggestions (default 10)'),
  start: Page('ignored (accepted for upstream clients)'),
  field: Type.Optional(Type.String({ description: 'ignored: every autocomplete field of the entity is used' })),
  filter: Filter,
})
export const BrowseBody = Type.Object({
  path: Type.String({ description: 'slash-delimited browse path, e.g. /prod/hive' }),
  entity: Type.String(),
  start: Page('first entity (default 0)'),
  limit: Page('entities per page (default 10)'),
})

export function searchRoutes({ model }: GatewayDeps): RouteSpec[] {
  const { registry, search } = model
  return [
    {
      method: 'POST', path: '/entities', action: 'search', scope: 'read', body: true, requestSchema: SearchBody,
      summary: 'Search entities of one type: free text, <field>:<value>, filters; facets and matched fields',
      example: { request: { input: 'sample', entity: 'dataset', start: 0, count: 10 } },
      handler: async function runSearch(req) {
        const body = req.body as Type.Static<typeof SearchBody>
        const value = await search.search({ entity: registry.entity(body.entity), input: body.input, start: body.start ?? 0, count: body.count ?? 10, filter: body.filter, sort: body.sort })
        return { body: { value } }
      },
    },
    {
      method: 'POST', path: '/entities', action: 'autocomplete', scope: 'read', body: true, requestSchema: AutocompleteBody,
      summary: 'Suggestions for what is being typed (names, titles, user names), optionally filtered',
      example: { request: { query: 'Baz Ch', entity: 'chart', limit: 10 } },
      handler: async function runAutocomplete(req) {
        const body = req.body as Type.Static<typeof AutocompleteBody>
        const value = await search.autocomplete({ entity: registry.entity(body.entity), query: body.query, limit: body.limit ?? 10, filter: body.filter })
        return { body: { value } }
      },
    },
    {
      method: 'POST', path: '/entities', action: 'browse', scope: 'read', body: true, requestSchema: BrowseBody,
      summary: 'Browse entities of one type by path: the entities listed there and the next-level groups',
      example: { request: { path: '/prod', entity: 'dataset', start: 0, limit: 10 } },
      handler: async function runBrowse(req) {
        const body = req.body as Type.Static<typeof BrowseBody>
        const value = await search.browse({ entity: registry.entity(body.entity), path: body.path, start: body.start ?? 0, limit: body.limit ?? 10 })
        return { body: { value } }
      },
    },
  ]
}
