/**
 * Routes 1, 8 and 9: aspect proposals (`POST /aspects?action=ingestProposal`, and the batch form
 * `ingestProposalBatch`), the versioned aspect read (`GET /aspects/<urn>?aspect=&version=`, legacy) and
 * timeseries reads (`POST /aspects?action=getTimeseriesAspectValues`).
 */
import { Type } from 'typebox'
import { CatalogError, fail } from '../../model/errors.ts'
import type { WriteItem } from '../../model/jobs.ts'
import { ProposalSchema, parseProposal } from '../../model/proposal.ts'
import { parseUrn } from '../../model/urn.ts'
import type { GatewayDeps } from '../deps.ts'
import { checkHardDelete } from '../http/auth.ts'
import type { RouteSpec } from '../http/route.ts'
import { AsyncFlag, isAsync, itemError, submit, unknownFieldsReport } from '../http/writes.ts'

const MAX_BATCH = 10_000
const DEFAULT_TIMESERIES_LIMIT = 10_000

export const ProposalBody = Type.Object({ proposal: ProposalSchema, async: AsyncFlag })
export const ProposalBatchBody = Type.Object({ proposals: Type.Array(Type.Unknown(), { maxItems: MAX_BATCH }), async: AsyncFlag })
export const AspectVersionQuery = Type.Object({
  aspect: Type.String({ minLength: 1, description: 'aspect name' }),
  version: Type.Integer({ minimum: 0, description: 'version (0 = latest, 1 = the oldest)' }),
})
export const TimeseriesBody = Type.Object({
  urn: Type.String(),
  entity: Type.String(),
  aspect: Type.String({ description: 'timeseries aspect name, e.g. datasetProfile' }),
  startTimeMillis: Type.Optional(Type.Integer({ description: 'inclusive lower bound (epoch ms)' })),
  endTimeMillis: Type.Optional(Type.Integer({ description: 'inclusive upper bound (epoch ms)' })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: DEFAULT_TIMESERIES_LIMIT, description: 'default 10000' })),
})

export function aspectsRoutes(deps: GatewayDeps): RouteSpec[] {
  const { registry, store } = deps.model
  return [
    {
      method: 'POST',
      path: '/aspects',
      action: 'ingestProposal',
      summary: 'Propose an aspect change (UPSERT, PATCH or DELETE); answers {"value": urn} once applied, or once queued with "async": "true" (plus writeId)',
      scope: 'write',
      body: true,
      requestSchema: ProposalBody,
      requestError: 'the body must be {"proposal": {...}}',
      nullIsAbsent: true,
      example: {
        request: { proposal: { entityType: 'dataset', entityUrn: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,SampleHiveDataset,PROD)', changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } } },
        response: { value: 'urn:svc:dataset:(urn:svc:dataPlatform:hive,SampleHiveDataset,PROD)' },
      },
      handler: async function ingestProposal(req) {
        const unknown: string[] = []
        const item = parseProposal(registry, (req.body as { proposal: unknown }).proposal, 'proposal', unknown)
        checkHardDelete(deps.model.config, registry, req, item, 'proposal.changeType')
        const done = await submit(deps, [item], req.actor, isAsync(req.body))
        const reported = unknownFieldsReport(unknown)
        if (done.mode === 'async') return { body: { value: item.urn, writeId: done.writeIdOf(0), ...reported } }
        const error = done.results[0]!.error
        if (error) throw itemError(error)
        return { body: { value: item.urn, ...reported } }
      },
    },
    {
      method: 'POST',
      path: '/aspects',
      action: 'ingestProposalBatch',
      summary: 'Propose many aspect changes; each is checked and applied on its own (one bad item never rejects the others)',
      scope: 'write',
      body: true,
      requestSchema: ProposalBatchBody,
      nullIsAbsent: true,
      requestError: `the body must be {"proposals": [...]} with at most ${MAX_BATCH} items`,
      handler: async function ingestProposalBatch(req) {
        const proposals = (req.body as { proposals: unknown[] }).proposals
        const results: Record<string, unknown>[] = []
        const items: WriteItem[] = []
        const positions: number[] = []
        proposals.forEach((raw, i) => {
          try {
            const unknown: string[] = []
            const item = parseProposal(registry, raw, `proposals[${i}]`, unknown)
            checkHardDelete(deps.model.config, registry, req, item, `proposals[${i}].changeType`)
            results.push({ index: i, urn: item.urn, status: 200, ...unknownFieldsReport(unknown) })
            items.push(item)
            positions.push(i)
          } catch (err) {
            if (!(err instanceof CatalogError)) throw err
            results.push({ index: i, status: err.status, error: err.toBody() })
          }
        })
        if (items.length > 0) {
          const done = await submit(deps, items, req.actor, isAsync(req.body))
          positions.forEach((i, k) => {
            if (done.mode === 'async') {
              results[i]!.writeId = done.writeIdOf(k)
              return
            }
            const error = done.results[k]!.error
            if (error) results[i] = { index: i, urn: items[k]!.urn, status: itemError(error).status, error: itemError(error).toBody(), ...unknownFieldsReport(results[i]!.unknownFields as string[] | undefined) }
          })
        }
        const accepted = results.filter((r) => r.status === 200).length
        return { body: { value: { accepted, rejected: proposals.length - accepted, results } } }
      },
    },
    {
      method: 'GET',
      path: '/writes/*',
      summary: 'The outcome of an asynchronous write: queued, applying, applied (each item\'s changes or error) or failed; kept for a day',
      scope: 'read',
      pathParam: Type.Object({ id: Type.String({ minLength: 1, description: 'the writeId an async write answered' }) }),
      handler: async function readWriteOutcome(req) { return { body: await deps.writer.status(req.params.id!) } },
    },
    {
      method: 'POST',
      path: '/aspects',
      action: 'getTimeseriesAspectValues',
      summary: 'Values of a timeseries aspect in an inclusive time range, newest first',
      scope: 'read',
      body: true,
      requestSchema: TimeseriesBody,
      handler: async function readTimeseries(req) {
        const body = req.body as Type.Static<typeof TimeseriesBody>
        const parsed = parseUrn(registry, body.urn, 'urn')
        const entity = registry.entity(body.entity)
        if (entity !== parsed.entity) throw fail('ENTITY_TYPE_MISMATCH', `entity ${body.entity} does not match the urn's entity type ${parsed.entity.name}`, [{ path: 'entity', message: `must be ${parsed.entity.name}` }])
        const spec = registry.aspectOf(entity, body.aspect)
        if (!spec.timeseries) throw fail('INVALID_REQUEST', `${spec.name} is not a timeseries aspect`, [{ path: 'aspect', message: 'not a timeseries aspect' }])
        const start = body.startTimeMillis ?? 0
        const end = body.endTimeMillis ?? Number.MAX_SAFE_INTEGER
        const limit = body.limit ?? DEFAULT_TIMESERIES_LIMIT
        const values = start > end ? [] : await store.timeseries(parsed.urn, spec.name, start, end, limit)
        return {
          body: {
            value: {
              entityName: entity.name, aspectName: spec.name,
              startTimeMillis: body.startTimeMillis, endTimeMillis: body.endTimeMillis, limit,
              values: values.map((json) => ({ aspect: { value: json, contentType: 'application/json' } })),
            },
          },
        }
      },
    },
    {
      method: 'GET',
      path: '/aspects/*',
      summary: 'One version of an aspect (legacy): version 0 is the latest, 1 the oldest',
      scope: 'read',
      query: AspectVersionQuery,
      handler: async function readAspectVersion(req) {
        const query = req.query as Type.Static<typeof AspectVersionQuery>
        const parsed = parseUrn(registry, req.params.urn!, 'urn')
        const spec = registry.aspectOf(parsed.entity, query.aspect)
        const version = query.version
        if (spec.timeseries) throw fail('INVALID_REQUEST', `${spec.name} is a timeseries aspect: read it with getTimeseriesAspectValues`, [{ path: 'aspect', message: 'timeseries aspects have no versions' }])
        const env = await store.version(parsed.urn, spec.name, version)
        if (!env) throw fail('VERSION_NOT_FOUND', `no version ${version} of ${spec.name} for ${parsed.urn}`, [{ path: 'version', message: 'not found' }])
        return { body: { version, aspect: { [spec.recordName]: env.value } } }
      },
    },
  ]
}
