/** JSON Pointers (RFC 6901) as patch paths use them: `/tags/urn:li:tag:x`, with `~1` for `/` and `~0` for `~`. */

/** The reference tokens of a pointer; undefined when it is not a pointer (does not start with `/`). */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) return undefined
  return pointer.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'))
}

/** A pointer built from tokens (the inverse of parsePointer). */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}
