/** Autocomplete helpers shared by both engines: the normalized form, matching at word starts, ranking. */

/** Lower-cases and collapses white space: the form autocomplete compares. */
export function normalizeSuggestion(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim()
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c)

/**
 * How a value matches a normalized query: from its start ('whole'), from one of its first MAX_WORD_STARTS word
 * starts ('word': where the suggestion entries of both engines begin), or not.
 */
export function matchSuggestion(value: string, query: string): 'whole' | 'word' | null {
  const text = normalizeSuggestion(value)
  if (text.startsWith(query)) return 'whole'
  return wordStarts(text).some((at) => at > 0 && text.startsWith(query, at)) ? 'word' : null
}

/**
 * Candidates an autocomplete reads in the order of their text (the native engine's suggestion entries of all shards
 * together, and as many names that start with the query; the names the redisearch engine reads from its lexicons):
 * a few times the suggestions asked for (the first ones are the best candidates), within bounds; with a filter,
 * which may drop most of them, 1,000.
 */
export const autocompleteScan = (limit: number, filtered: boolean): number => (filtered ? 1000 : Math.min(1000, Math.max(50, limit * 5)))

/** Whole-value prefix matches first, then word-prefix ones; shorter first; then alphabetical; at most `limit`. */
export function rankSuggestions(found: { text: string; whole: boolean }[], limit: number): string[] {
  return topSuggestions(found, limit).map((f) => f.text)
}

/**
 * The first `limit` suggestions in rank order (whole first, shorter, alphabetical). The order depends on each
 * suggestion alone, so the top of a union is within the union of each part's top: a sharded engine keeps each
 * shard's top `limit` before merging. A list already in this order costs one pass to check.
 */
export function topSuggestions<T extends { text: string; whole: boolean }>(found: T[], limit: number): T[] {
  return found.sort((a, b) => Number(b.whole) - Number(a.whole) || a.text.length - b.text.length || a.text.localeCompare(b.text)).slice(0, limit)
}

/** Autocomplete: word starts indexed per value (a long description is not a suggestion source anyway). */
const MAX_WORD_STARTS = 6

/** Offsets where a word starts (a letter or digit after anything else). */
export function wordStarts(text: string): number[] {
  const starts: number[] = []
  for (let i = 0; i < text.length && starts.length < MAX_WORD_STARTS; i++) {
    const isWord = isWordChar(text[i])
    if (isWord && (i === 0 || !isWordChar(text[i - 1]))) starts.push(i)
  }
  return starts
}

