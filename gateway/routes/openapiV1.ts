/**
 * Upstream's v1 timeline and write-trace routes (datahub-project/datahub, openapi-servlet:
 * v1/timeline/TimelineControllerV1 at `/openapi/timeline/v1/{urn}`, also served at `/openapi/v1/timeline/{urn}`;
 * v1/trace/TraceController `POST /openapi/v1/trace/write/{traceId}`). The timeline is derived from the entity's
 * version history (model/timeline.ts). A trace answers, per urn and aspect, where the write of that trace is:
 * ACTIVE_STATE (the latest value carries the trace id), HISTORIC_STATE (a later write replaced it), PENDING (an
 * async write of the trace is still queued), ERROR (it was refused or failed) or NO_OP (nothing of the trace is
 * stored: e.g. it wrote what was already there). An applied write is searchable in the same step, so the search
 * storage's state is the primary storage's.
 */
import { Type } from 'typebox'
import type { Envelope } from '../../model/derive/envelope.ts'
import { fail } from '../../model/errors.ts'
import { parseUrn } from '../../model/urn.ts'
import { CATEGORIES, timeline, type Category } from '../../model/timeline.ts'
import type { GatewayDeps } from '../deps.ts'
import { ListParam } from '../http/params.ts'
import type { RouteSpec } from '../http/route.ts'
import { traceIdOfMetadata } from '../openapi/trace.ts'
import { aspectNamed } from '../openapi/paths.ts'
import { TRACE_ERROR, TraceBody } from '../openapi/schemas.ts'

export const TimelineQuery = Type.Object({
  categories: ListParam(`${CATEGORIES.join(', ')} (any case)`, { minItems: 1 }),
  startTime: Type.Optional(Type.Integer({ minimum: -1, default: -1, description: 'epoch ms, inclusive (default: from the first change)' })),
  endTime: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'epoch ms, inclusive (default 0: now)' })),
})
export const TraceQuery = Type.Object({
  onlyIncludeErrors: Type.Optional(Type.Boolean({ default: true, description: 'true (default, as upstream): only aspects whose write did not succeed' })),
  detailed: Type.Optional(Type.Boolean({ default: false, description: 'accepted (the answer is the same)' })),
})
export const TracePath = Type.Object({ traceId: Type.String({ description: 'the trace id (or the traceparent) the write answered' }) })

type WriteStatus = 'ACTIVE_STATE' | 'HISTORIC_STATE' | 'PENDING' | 'ERROR' | 'NO_OP'

/** The trace id of a path: a bare 32-hex id or a whole traceparent. */
function traceIdOfPath(raw: string): string {
  const id = raw.includes('-') ? raw.split('-')[1] ?? '' : raw
  if (!/^[0-9a-f]{32}$/i.test(id)) throw fail('INVALID_REQUEST', 'the trace id must be 32 hex digits or a traceparent', [{ path: 'traceId', message: `got ${JSON.stringify(raw.slice(0, 100))}` }])
  return id.toLowerCase()
}

export function openapiV1Routes(deps: GatewayDeps): RouteSpec[] {
  const { model } = deps
  const { registry, store } = model

  /** What the async writes of a trace came to, per urn: pending, or refused/failed. */
  const traceWrites = async (traceId: string): Promise<{ pending: boolean; failedUrns: Set<string> }> => {
    const ids = await model.redis.smembers(model.keys.traceWrites(traceId))
    const failedUrns = new Set<string>()
    let pending = false
    for (const id of ids) {
      const status = await deps.writer.status(id).catch(() => undefined)
      if (!status) continue
      if (status.state === 'queued' || status.state === 'applying') pending = true
      if (status.state === 'failed') failedUrns.add('*')
      if (status.state === 'applied') for (const r of status.results ?? []) if (r.error) failedUrns.add(r.urn)
    }
    return { pending, failedUrns }
  }

  return [
    {
      method: 'GET', path: '/openapi/v1/timeline/*', aliases: ['/openapi/timeline/v1/*'], scope: 'read',
      summary: 'Timeline of an entity: change transactions derived from its version history, oldest first',
      query: TimelineQuery,
      handler: async function readTimeline(req) {
        const parsed = parseUrn(registry, req.params.urn, 'urn')
        const { categories, startTime, endTime } = req.query as { categories: string[]; startTime: number; endTime: number }
        const asked = categories.map((c) => c.toUpperCase())
        const unknown = asked.filter((c) => !(CATEGORIES as readonly string[]).includes(c))
        if (unknown.length > 0) throw fail('INVALID_REQUEST', `unknown categories ${unknown.join(', ')}`, [{ path: 'categories', message: `known: ${CATEGORIES.join(', ')}` }])
        const state = await store.state(parsed.urn, true)
        const histories = new Map<string, Map<number, Envelope>>()
        for (const [aspect, env] of state.latest) {
          const versions = new Map(state.histories?.get(aspect) ?? [])
          versions.set(Math.max(0, ...versions.keys()) + 1, env)
          histories.set(aspect, versions)
        }
        return { body: timeline(parsed.urn, histories, [...new Set(asked)] as Category[], startTime, endTime === 0 ? Number.MAX_SAFE_INTEGER : endTime) }
      },
    },
    {
      method: 'POST', path: '/openapi/v1/trace/write/*', body: true, requestSchema: TraceBody, requestError: TRACE_ERROR, scope: 'read',
      summary: 'Where the writes of a trace are: {"<urn>": ["<aspect>", ...]} -> {"<urn>": {"<aspect>": {success, primaryStorage: {writeStatus}, searchStorage: {writeStatus}}}}',
      pathParam: TracePath, query: TraceQuery,
      handler: async function traceWrite(req) {
        const traceId = traceIdOfPath(req.params.traceId ?? '')
        const onlyErrors = req.query.onlyIncludeErrors as boolean
        const body = req.body
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fail('INVALID_REQUEST', 'the body must be {"<urn>": ["<aspectName>", ...]}', [{ path: 'body', message: 'not an object' }])
        const writes = await traceWrites(traceId)
        const answer: Record<string, Record<string, unknown>> = {}
        for (const [urn, aspects] of Object.entries(body)) {
          const parsed = parseUrn(registry, urn, urn)
          if (!Array.isArray(aspects) || !aspects.every((a) => typeof a === 'string')) throw fail('INVALID_REQUEST', `${urn} must list aspect names`, [{ path: urn, message: 'not a list of strings' }])
          const state = await store.state(parsed.urn, true)
          const names = aspects.length > 0 ? aspects.map((a) => aspectNamed(registry, parsed.entity.name, a) ?? a) : [...state.latest.keys()]
          const perAspect: Record<string, unknown> = {}
          for (const aspect of names) {
            const latest = state.latest.get(aspect)
            const archived = [...(state.histories?.get(aspect)?.values() ?? [])]
            const status: WriteStatus = traceIdOfMetadata(latest?.systemMetadata) === traceId ? 'ACTIVE_STATE'
              : archived.some((env) => traceIdOfMetadata(env.systemMetadata) === traceId) ? 'HISTORIC_STATE'
                : writes.failedUrns.has(parsed.urn) || writes.failedUrns.has('*') ? 'ERROR'
                  : writes.pending ? 'PENDING' : 'NO_OP'
            const success = status !== 'ERROR'
            if (onlyErrors && success) continue
            perAspect[aspect] = { success, primaryStorage: { writeStatus: status }, searchStorage: { writeStatus: status } }
          }
          if (!onlyErrors || Object.keys(perAspect).length > 0) answer[parsed.urn] = perAspect
        }
        return { body: answer }
      },
    },
  ]
}
