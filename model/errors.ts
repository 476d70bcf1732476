/**
 * The error catalogue: every error the service can answer with, as a stable code, its HTTP status and a default
 * message. Routes and workers throw `CatalogError`s built here; the gateway maps them to a response in one place
 * (gateway/http/errors.ts). The README documents every code (a test pins that).
 */

/** One catalogue entry: HTTP status and default message. */
export interface ErrorEntry {
  readonly status: number
  readonly message: string
}

export const ERRORS = {
  MALFORMED_JSON: { status: 400, message: 'the request body is not valid JSON' },
  INVALID_REQUEST: { status: 400, message: 'the request does not match the route\'s schema' },
  INVALID_URN: { status: 400, message: 'the urn is not valid' },
  UNKNOWN_ENTITY_TYPE: { status: 400, message: 'unknown entity type' },
  ENTITY_TYPE_MISMATCH: { status: 400, message: 'the entity type does not match the urn' },
  UNKNOWN_ASPECT: { status: 400, message: 'unknown aspect for this entity type' },
  INVALID_ASPECT: { status: 400, message: 'the aspect value does not match its schema' },
  UNSUPPORTED_CHANGE: { status: 400, message: 'this change is not supported for this aspect' },
  UNKNOWN_FILTER_FIELD: { status: 400, message: 'the filter names a field that is not searchable for this entity' },
  INVALID_FILTER: { status: 400, message: 'the filter is not valid' },
  FILTER_TOO_BROAD: { status: 400, message: 'a string filter matches more distinct values than the native engine answers in one query' },
  UNAUTHORIZED: { status: 401, message: 'a valid bearer token is required' },
  FORBIDDEN: { status: 403, message: 'the token does not allow this operation' },
  NOT_FOUND: { status: 404, message: 'no such route' },
  VERSION_NOT_FOUND: { status: 404, message: 'no such aspect version' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'method not allowed on this route' },
  PRECONDITION_FAILED: { status: 412, message: 'the aspect is not at the version the write expected' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'the request body is too large' },
  HEADERS_TOO_LARGE: { status: 431, message: 'the request line or headers are too large' },
  PATCH_FAILED: { status: 422, message: 'a patch operation could not be applied; nothing was changed' },
  JOB_NOT_FOUND: { status: 404, message: 'no such write (unknown id, or its record has expired)' },
  TOKEN_NOT_FOUND: { status: 404, message: 'no such token (unknown id, or already revoked)' },
  OVERLOADED: { status: 503, message: 'the write queues are full; retry later' },
  WRITE_NOT_CONFIRMED: { status: 503, message: 'the write was queued but not confirmed in time; it may still be applied' },
  NOT_REPLICATED: { status: 503, message: 'the write was applied on its primary but not acknowledged by enough replicas in time; retry it' },
  UNAVAILABLE: { status: 503, message: 'the backing store is unavailable' },
  CLUSTER_DOWN: { status: 503, message: 'the Redis Cluster is failing over or does not serve every slot; retry later' },
  SLOT_MOVING: { status: 503, message: 'the data this request needs is moving between cluster nodes; retry later' },
  INTERNAL: { status: 500, message: 'internal error' },
} as const satisfies Record<string, ErrorEntry>

/** A stable error code of the catalogue. */
export type ErrorCode = keyof typeof ERRORS

/** One precise problem: where (a JSON path or parameter name) and what. */
export interface ErrorDetail {
  path: string
  message: string
}

/** An error of the catalogue, carrying its code, HTTP status and details. */
export class CatalogError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details: ErrorDetail[]
  /** Seconds a client should wait before retrying (503 answers). */
  readonly retryAfter?: number

  constructor(code: ErrorCode, message?: string, details: ErrorDetail[] = [], retryAfter?: number) {
    super(message ?? ERRORS[code].message)
    this.name = 'CatalogError'
    this.code = code
    this.status = ERRORS[code].status
    this.details = details
    this.retryAfter = retryAfter
  }

  /** The JSON body every error answer carries. */
  toBody(): { status: number; code: ErrorCode; message: string; details: ErrorDetail[] } {
    return { status: this.status, code: this.code, message: this.message, details: this.details }
  }
}

/** Builds a CatalogError; `throw fail(...)` reads well at call sites. */
export function fail(code: ErrorCode, message?: string, details: ErrorDetail[] = []): CatalogError {
  return new CatalogError(code, message, details)
}

/** True for errors of the catalogue. */
export function isCatalogError(err: unknown): err is CatalogError {
  return err instanceof CatalogError
}
