/**
 * Malformed `%` escapes in a request path: a `%` not followed by two hex digits, or escapes that do not spell
 * UTF-8 (`%C3%28`). The router cannot match such a path, so without this check it answered 404 "no route"; the
 * gateway answers 400 naming the escape instead.
 */

/** The first malformed escape of `path` (as written in it), or undefined when every escape decodes. Pure. */
export function malformedEscape(path: string): string | undefined {
  const escapes = /(?:%[0-9A-Fa-f]{2})+|%.{0,2}/gs
  for (const match of path.matchAll(escapes)) {
    const run = match[0]
    if (!/^(?:%[0-9A-Fa-f]{2})+$/.test(run)) return run
    const bad = badSequence(run.slice(1).split('%'))
    if (bad !== undefined) return bad
  }
  return undefined
}

/** How many bytes the UTF-8 sequence led by `byte` has (1 for a byte that cannot lead one). */
const sequenceLength = (byte: number): number => (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1)

/** The first escaped UTF-8 sequence of `hex` (two hex digits per byte) that does not decode, as written; pure. */
function badSequence(hex: string[]): string | undefined {
  for (let i = 0; i < hex.length;) {
    const length = sequenceLength(parseInt(hex[i]!, 16))
    const sequence = hex.slice(i, i + length).map((h) => `%${h}`).join('')
    try {
      decodeURIComponent(sequence)
    } catch {
      return sequence
    }
    i += length
  }
  return undefined
}
