/**
 * What the ingest command sends: every record of an input file (Avro-JSON MCE/MCP, or a ready request from a
 * `*.requests.json` file) as a unit of proposals. A snapshot's aspects form one unit so they travel in one batch
 * (the service applies a batch's items of one entity atomically); records that cannot be sent become local
 * rejections, reported with the server's ones.
 */
import { aspectNameOfRecord, entityTypeOfUrn, isMce, isMcp, mceToRequest } from '../../model/avro.ts'
import type { Registry } from '../../model/registry.ts'

/** The proposals of one input record, never split across batches. */
export interface Unit {
  /** `file[index]`: where the record came from, for messages. */
  source: string
  proposals: unknown[]
}

/** A record the CLI could not turn into proposals. */
export interface LocalRejection {
  source: string
  code: string
  message: string
  entityType?: string
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The proposals of a snapshot ingest body (`{entity: {value: {<snapshot>: {urn, aspects}}}, systemMetadata?}`). */
export function snapshotProposals(registry: Registry, body: Record<string, any>): unknown[] {
  const [snapshotName, snapshot] = Object.entries((body.entity?.value ?? {}) as Record<string, any>)[0] ?? []
  if (snapshotName === undefined || !isObject(snapshot) || typeof snapshot.urn !== 'string') throw new Error('the snapshot has no urn')
  const urn = snapshot.urn
  const entityType = registry.entities.find((e) => e.snapshot === snapshotName)?.name ?? entityTypeOfUrn(registry, urn)
  const proposal = (aspectName: string, value: unknown) => ({
    entityType, entityUrn: urn, changeType: 'UPSERT', aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    ...(body.systemMetadata ? { systemMetadata: body.systemMetadata } : {}),
  })
  const fromList = ((snapshot.aspects ?? []) as unknown[]).map((entry) => {
    const [recordName, value] = Object.entries(isObject(entry) ? entry : {})[0] ?? []
    if (recordName === undefined) throw new Error(`${snapshotName} has an aspect entry that is not {<record name>: value}`)
    return proposal(aspectNameOfRecord(registry, recordName), value)
  })
  // GlossaryTermSnapshot's old form: aspects as direct fields named by the aspect.
  const direct = Object.entries(snapshot).filter(([k]) => k !== 'urn' && k !== 'aspects' && registry.findAspect(k)).map(([k, v]) => proposal(k, v))
  return [...fromList, ...direct]
}

/** The proposals of one record: an MCE or MCP in Avro-JSON, or a request `{method, path, body}`. */
export function recordProposals(registry: Registry, record: unknown): unknown[] {
  const request = isMce(record) || isMcp(record) ? mceToRequest(registry, record) : record
  if (!isObject(request) || typeof request.path !== 'string' || !isObject(request.body)) {
    throw new Error('neither a metadata change event or proposal nor a request {method, path, body}')
  }
  const action = /[?&]action=([A-Za-z]+)/.exec(request.path)?.[1]
  if (request.path.startsWith('/entities') && action === 'ingest') return snapshotProposals(registry, request.body)
  if (request.path.startsWith('/aspects') && action === 'ingestProposal') return [request.body.proposal]
  if (request.path.startsWith('/aspects') && action === 'ingestProposalBatch' && Array.isArray(request.body.proposals)) return request.body.proposals
  throw new Error(`${request.method ?? 'POST'} ${request.path} is not an ingest request`)
}

const URN_TYPE = /^urn:[A-Za-z0-9]+:([A-Za-z][A-Za-z0-9_]*):/

/**
 * The entity type a proposal or record is about, for the summary: a proposal's `entityType`, else the type segment
 * of the first urn found (depth-first, a few levels down: an MCE's snapshot urn, an MCP's entityUrn). Pure.
 */
export function entityTypeOf(value: unknown, depth = 5): string | undefined {
  if (typeof value === 'string') return URN_TYPE.exec(value)?.[1]
  if (depth === 0 || typeof value !== 'object' || value === null) return undefined
  if (isObject(value) && typeof value.entityType === 'string' && value.entityType !== '') return value.entityType
  const fields = isObject(value) ? ['entityUrn', 'urn', ...Object.keys(value)].map((k) => value[k]) : (value as unknown[])
  for (const field of fields) {
    const found = entityTypeOf(field, depth - 1)
    if (found) return found
  }
  return undefined
}

/** The records of a parsed file: a list, or one record. */
export function recordsOf(parsed: unknown): unknown[] {
  return Array.isArray(parsed) ? parsed : [parsed]
}

/** Every record of a file as units, and the records that could not be converted. */
export function unitsOf(registry: Registry, file: string, records: unknown[]): { units: Unit[]; rejected: LocalRejection[] } {
  const units: Unit[] = []
  const rejected: LocalRejection[] = []
  records.forEach((record, i) => {
    const source = `${file}[${i}]`
    try {
      const proposals = recordProposals(registry, record)
      if (proposals.length > 0) units.push({ source, proposals })
    } catch (err) {
      rejected.push({ source, code: 'UNCONVERTIBLE_RECORD', message: `${source}: ${(err as Error).message}`, entityType: entityTypeOf(record) })
    }
  })
  return { units, rejected }
}
