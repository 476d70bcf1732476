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
    try {
      decodeURIComponent(run)
    } catch {
      return run
    }
  }
  return undefined
}
