/**
 * Redis's glob patterns (SCAN MATCH, KEYS), pure: `*` any run, `?` one character, `[...]` one of a class (`^` or `!`
 * negates, `a-z` ranges), `\` escapes. Used to test keys in the client against several patterns at once, so that
 * one SCAN of the keyspace serves them all (Redis matches each key against MATCH's one pattern, and a pattern such
 * as `svc:{*}:ix:*` backtracks at every brace: five patterns were five such passes).
 */

const special = /[.*+?^${}()|[\]\\/]/g

/** The regular expression that accepts exactly the keys a Redis glob pattern matches. */
export function globToRegExp(pattern: string): RegExp {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\' && i + 1 < pattern.length) source += pattern[++i]!.replace(special, '\\$&')
    else if (c === '*') source += '[\\s\\S]*'
    else if (c === '?') source += '[\\s\\S]'
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2)
      if (end < 0) { source += '\\['; continue }
      let body = pattern.slice(i + 1, end)
      const negated = body[0] === '^' || body[0] === '!'
      if (negated) body = body.slice(1)
      source += `[${negated ? '^' : ''}${body.replace(/[\]\\^]/g, '\\$&')}]`
      i = end
    } else source += c.replace(special, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

/** The literal text every key a pattern matches begins with (up to its first wildcard or class). */
export function globPrefix(pattern: string): string {
  let prefix = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '*' || c === '?' || c === '[') break
    prefix += c === '\\' && i + 1 < pattern.length ? pattern[++i]! : c
  }
  return prefix
}

/** The longest text that every one of `texts` begins with. */
export function commonPrefix(texts: readonly string[]): string {
  if (texts.length === 0) return ''
  let prefix = texts[0]!
  for (const t of texts) while (!t.startsWith(prefix)) prefix = prefix.slice(0, -1)
  return prefix
}
