/**
 * The live scenario's query kinds (issue 19), each drawing its words, prefixes, filter values and page at random
 * from the catalogue's vocabulary (liveCatalogue.ts), so that almost no query is asked twice and no cache of the
 * service is warm for it. Deep pages are as the issue has them at 100,000 datasets (a word from 0-2000, browse from
 * 0-5000), scaled down with smaller catalogues so that pages stay inside the matches.
 */
import type { Request } from './load.ts'
import { between, pick, PLATFORMS, platformUrn, TAGS, WORDS, type Random } from './liveCatalogue.ts'

const S = '/entities?action=search'
const search = (input: string, extra: Record<string, unknown> = {}): Request =>
  ({ method: 'POST', path: S, body: JSON.stringify({ input, entity: 'dataset', start: 0, count: 10, ...extra }) })
const filter = (field: string, condition: string, value: string) => ({ or: [{ and: [{ field, condition, value }] }] })
const prefix = (rnd: Random) => pick(rnd, WORDS).slice(0, 3)

export interface LiveKind {
  kind: string
  draw(rnd: Random, datasets: number): Request
}

export const LIVE_KINDS: readonly LiveKind[] = [
  { kind: 'a word', draw: (rnd) => search(pick(rnd, WORDS)) },
  {
    kind: 'field:value (tags:X, platform:Y)',
    draw: (rnd) => search(rnd() < 0.5 ? `tags:${pick(rnd, TAGS)}` : `platform:${pick(rnd, PLATFORMS)}`),
  },
  { kind: '* + filter name CONTAIN a word', draw: (rnd) => search('*', { filter: filter('name', 'CONTAIN', pick(rnd, WORDS)) }) },
  {
    kind: 'a word, page from 0-2000',
    draw: (rnd, n) => search(pick(rnd, WORDS), { start: between(rnd, 0, Math.round(2000 * Math.min(1, n / 100_000))) }),
  },
  {
    kind: 'browse /prod/<platform>, page from 0-5000',
    draw: (rnd, n) => ({
      method: 'POST', path: '/entities?action=browse',
      body: JSON.stringify({ path: `/prod/${pick(rnd, PLATFORMS)}`, entity: 'dataset', start: between(rnd, 0, Math.round(5000 * Math.min(1, n / 100_000))), limit: 10 }),
    }),
  },
  {
    kind: 'a word + filter platform EQUAL',
    draw: (rnd) => search(pick(rnd, WORDS), { filter: filter('platform', 'EQUAL', platformUrn(pick(rnd, PLATFORMS))) }),
  },
  { kind: 'two words', draw: (rnd) => search(`${pick(rnd, WORDS)} ${pick(rnd, WORDS)}`) },
  { kind: 'prefix abc*', draw: (rnd) => search(`${prefix(rnd)}*`) },
  { kind: '* + filter name START_WITH', draw: (rnd) => search('*', { filter: filter('name', 'START_WITH', prefix(rnd)) }) },
  { kind: '* + filter name END_WITH', draw: (rnd) => search('*', { filter: filter('name', 'END_WITH', `_${between(rnd, 0, 99)}`) }) },
  { kind: '* + filter name GREATER_THAN', draw: (rnd) => search('*', { filter: filter('name', 'GREATER_THAN', pick(rnd, WORDS)) }) },
  {
    kind: 'autocomplete',
    draw: (rnd) => ({
      method: 'POST', path: '/entities?action=autocomplete',
      body: JSON.stringify({ query: rnd() < 0.5 ? prefix(rnd) : `${pick(rnd, WORDS)} ${prefix(rnd)}`, entity: 'dataset', limit: 10 }),
    }),
  },
]
