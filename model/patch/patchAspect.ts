/**
 * PATCH of one aspect, pure: the patch document as upstream clients send it (a JSON array of RFC 6902 operations,
 * or `{"patch": [...]}` as newer clients may), checked at the gateway; applied by the worker to the latest value
 * (or, when the aspect is absent, its template: model/patch/templates.ts) in the keyed form upstream's paths address. Failures are catalogue errors naming the
 * operation; the caller validates the result against the aspect's schema.
 */
import { fail, type CatalogError } from '../errors.ts'
import { applyPatch, PATCH_OPS, PatchFailure, type PatchOperation } from './apply.ts'
import { fromKeyed, toKeyed } from './keyed.ts'
import { templateOf, withoutUnusedTemplateFields } from './templates.ts'

/** Content types a patch may be sent with (upstream sends `application/json-patch+json`). */
export const PATCH_CONTENT_TYPE = /^application\/(json-patch\+)?json\b/i

/** The operations of a patch document, or a 400 naming what is wrong (paths start with `where`). */
export function parsePatchDocument(document: unknown, where: string): PatchOperation[] {
  const ops = Array.isArray(document) ? document : (document as { patch?: unknown } | null)?.patch
  if (!Array.isArray(ops)) throw fail('INVALID_REQUEST', `${where} must be a JSON array of patch operations`, [{ path: where, message: 'not a JSON array' }])
  if (ops.length === 0) throw fail('INVALID_REQUEST', `${where} has no operations`, [{ path: where, message: 'empty' }])
  ops.forEach((op: unknown, i) => {
    const o = op as Partial<PatchOperation> | null
    const at = `${where}[${i}]`
    if (typeof o !== 'object' || o === null || typeof o.op !== 'string' || typeof o.path !== 'string') {
      throw fail('INVALID_REQUEST', `${at} must be {"op", "path", ...}`, [{ path: at, message: 'op and path are required strings' }])
    }
    if (!(PATCH_OPS as readonly string[]).includes(o.op)) {
      throw fail('INVALID_REQUEST', `${at}: unknown op "${o.op}"`, [{ path: `${at}.op`, message: `one of ${PATCH_OPS.join(', ')}` }])
    }
    if (['add', 'replace', 'test'].includes(o.op) && !('value' in o)) throw fail('INVALID_REQUEST', `${at}: ${o.op} needs a value`, [{ path: `${at}.value`, message: 'required' }])
    if (['move', 'copy'].includes(o.op) && typeof o.from !== 'string') throw fail('INVALID_REQUEST', `${at}: ${o.op} needs "from"`, [{ path: `${at}.from`, message: 'required' }])
  })
  return ops as PatchOperation[]
}

/**
 * The patched value of aspect `aspect` (schema `schema`) from `current` (undefined: the aspect does not exist; its
 * template's urns start with `urnPrefix`, the deployment's).
 */
export function patchValue(aspect: string, schema: unknown, current: unknown, operations: readonly PatchOperation[], urnPrefix = 'urn:svc:'): unknown {
  const start = toKeyed(aspect, current === undefined ? templateOf(aspect, schema, urnPrefix) : current, schema)
  let patched: unknown
  try {
    patched = applyPatch(start, operations)
  } catch (err) {
    if (!(err instanceof PatchFailure)) throw err
    throw patchFailed(aspect, err)
  }
  const value = fromKeyed(aspect, patched, schema)
  return current === undefined ? withoutUnusedTemplateFields(aspect, schema, value) : value
}

function patchFailed(aspect: string, err: PatchFailure): CatalogError {
  return fail('PATCH_FAILED', `${aspect}: ${err.message}; nothing was changed`, [{ path: `patch[${err.index}]`, message: `${err.operation.op} ${err.operation.path}` }])
}
