/**
 * Text to search tokens: lower-cased words split on every non-alphanumeric character (so on `( ) , . / : _ -` and
 * spaces) and on camelCase boundaries (`SampleHdfsDataset` -> sample, hdfs, dataset). Used for indexing and
 * queries alike, so both always agree.
 */

const CAMEL = /([\p{Ll}\p{N}])(\p{Lu})|(\p{Lu})(\p{Lu}\p{Ll})/gu

/** The tokens of a text, in order, duplicates kept. */
export function tokenize(text: string): string[] {
  const spaced = text.replace(CAMEL, (_, a?: string, b?: string, c?: string, d?: string) => (a ? `${a} ${b}` : `${c} ${d}`))
  return spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0)
}

/**
 * The searchable text of a urn: its parts without the `urn:svc:<type>:` syntax (of it and of nested urns), so
 * every urn does not index "urn", "svc", "data platform" (`urn:svc:dataset:(urn:svc:dataPlatform:hive,db.t,PROD)`
 * gives `(hive,db.t,PROD)`).
 */
export function urnText(urn: string): string {
  return urn.replace(/urn:[A-Za-z0-9_-]+:[A-Za-z0-9_]+:/g, '')
}
