/**
 * JSON Patch (RFC 6902): add, remove, replace, move, copy and test, applied to a copy of a document. One difference
 * from the RFC, as upstream's patch templates behave: `add` creates missing parent objects on its way (adding a tag to
 * a schema field that has no editable info yet). An operation that cannot apply throws a PatchFailure naming it.
 */
import { canonicalJson } from '../canonicalJson.ts'
import { parsePointer } from './pointer.ts'

/** One patch operation as sent. */
export interface PatchOperation {
  op: string
  path: string
  from?: string
  value?: unknown
}

/** Why operation `index` of a patch could not apply. */
export class PatchFailure extends Error {
  readonly index: number
  readonly operation: PatchOperation
  constructor(index: number, operation: PatchOperation, reason: string) {
    super(`patch operation ${index} (${operation.op} ${operation.path}) failed: ${reason}`)
    this.index = index
    this.operation = operation
  }
}

export const PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const

type Container = Record<string, unknown>
/** An object (arrays are told apart before this is asked). */
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Applies `operations` in order to a copy of `document`; answers the patched copy or throws a PatchFailure. */
export function applyPatch(document: unknown, operations: readonly PatchOperation[]): unknown {
  let doc = structuredClone(document)
  operations.forEach((operation, index) => {
    const failed = (reason: string) => new PatchFailure(index, operation, reason)
    const tokens = parsePointer(operation.path)
    if (!tokens) throw failed('the path is not a JSON Pointer')
    switch (operation.op) {
      case 'add':
        if (!('value' in operation)) throw failed('no value')
        doc = add(doc, tokens, structuredClone(operation.value), failed, true)
        break
      case 'remove':
        doc = remove(doc, tokens, failed).doc
        break
      case 'replace':
        if (!('value' in operation)) throw failed('no value')
        get(doc, tokens, failed)
        doc = add(remove(doc, tokens, failed).doc, tokens, structuredClone(operation.value), failed, false)
        break
      case 'move': {
        const from = pointerOf(operation.from, failed)
        if (tokens.length > from.length && from.every((t, i) => t === tokens[i])) throw failed('cannot move a value into itself')
        const removed = remove(doc, from, failed)
        doc = add(removed.doc, tokens, removed.value, failed, false)
        break
      }
      case 'copy':
        doc = add(doc, tokens, structuredClone(get(doc, pointerOf(operation.from, failed), failed)), failed, false)
        break
      case 'test': {
        if (!('value' in operation)) throw failed('no value')
        const actual = get(doc, tokens, failed)
        if (canonicalJson(actual) !== canonicalJson(operation.value)) throw failed(`the value there is ${truncate(JSON.stringify(actual))}`)
        break
      }
      default:
        throw failed(`unknown op; one of ${PATCH_OPS.join(', ')}`)
    }
  })
  return doc
}

function truncate(text: string | undefined): string {
  return text === undefined ? 'absent' : text.length > 200 ? `${text.slice(0, 200)}...` : text
}

function pointerOf(from: string | undefined, failed: (r: string) => Error): string[] {
  const tokens = typeof from === 'string' ? parsePointer(from) : undefined
  if (!tokens) throw failed('"from" is not a JSON Pointer')
  return tokens
}

function arrayIndex(array: unknown[], token: string, forAdd: boolean, failed: (r: string) => Error): number {
  if (forAdd && token === '-') return array.length
  if (!/^(0|[1-9]\d*)$/.test(token)) throw failed(`"${token}" is not an array index`)
  const index = Number(token)
  if (index > array.length || (!forAdd && index === array.length)) throw failed(`index ${index} is out of bounds (length ${array.length})`)
  return index
}

function get(doc: unknown, tokens: readonly string[], failed: (r: string) => Error): unknown {
  let current = doc
  for (const token of tokens) {
    if (Array.isArray(current)) current = current[arrayIndex(current, token, false, failed)]
    else if (isContainer(current) && Object.hasOwn(current, token)) current = current[token]
    else throw failed(`path not found at "${token}"`)
  }
  return current
}

/** Adds `value` at `tokens`; `createParents` makes missing parent objects. */
function add(doc: unknown, tokens: readonly string[], value: unknown, failed: (r: string) => Error, createParents: boolean): unknown {
  if (tokens.length === 0) return value
  let parent: unknown = doc
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(parent)) {
      parent = parent[arrayIndex(parent, token, false, failed)]
    } else if (isContainer(parent)) {
      if (!Object.hasOwn(parent, token) || parent[token] === undefined) {
        if (!createParents) throw failed(`path not found at "${token}"`)
        parent[token] = {}
      }
      parent = parent[token]
    } else {
      throw failed(`path not found at "${token}"`)
    }
  }
  const last = tokens[tokens.length - 1]!
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true, failed), 0, value)
  else if (isContainer(parent)) parent[last] = value
  else throw failed(`the parent of "${last}" is not an object or array`)
  return doc
}

function remove(doc: unknown, tokens: readonly string[], failed: (r: string) => Error): { doc: unknown; value: unknown } {
  if (tokens.length === 0) return { doc: undefined, value: doc }
  const parent = get(doc, tokens.slice(0, -1), failed)
  const last = tokens[tokens.length - 1]!
  if (Array.isArray(parent)) {
    const [value] = parent.splice(arrayIndex(parent, last, false, failed), 1)
    return { doc, value }
  }
  if (isContainer(parent) && Object.hasOwn(parent, last)) {
    const value = parent[last]
    delete parent[last]
    return { doc, value }
  }
  throw failed(`path not found at "${last}"`)
}
