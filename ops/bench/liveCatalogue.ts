/**
 * The live scenario's catalogue (issue 19's shape), generated, not stored: dataset `i` has a name of 3 words of a
 * 400-word vocabulary + its number, a description of 8-14 such words, 1-3 of 24 tags (globalTags), one of 200
 * owners (ownership), on one of 12 platforms. Everything derives from `i` through a seeded generator, so the load,
 * the write stream and the queries agree without keeping the catalogue in memory.
 */

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type Random = () => number
export const pick = <T>(rnd: Random, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!
export const between = (rnd: Random, lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1))

/**
 * 400 pronounceable lower-case words (consonant-vowel-consonant-vowel-consonant, never ending in `s`, so no
 * stemmer takes one for another's plural), the same on every run.
 */
function vocabulary(size: number): string[] {
  const c = 'bdfgklmnprtvz'
  const v = 'aeiou'
  const end = 'bdfgklmnprtvz'
  const rnd = seeded(19)
  const words = new Set<string>()
  while (words.size < size) words.add(pick(rnd, [...c]) + pick(rnd, [...v]) + pick(rnd, [...c]) + pick(rnd, [...v]) + pick(rnd, [...end]))
  return [...words]
}

export const WORDS: readonly string[] = vocabulary(400)
export const PLATFORMS: readonly string[] = ['hive', 'kafka', 'snowflake', 'postgres', 'mysql', 's3', 'bigquery', 'redshift', 'oracle', 'mssql', 'mongodb', 'elasticsearch']
export const TAGS: readonly string[] = ['Pii', 'Gold', 'Silver', 'Bronze', 'Finance', 'Marketing', 'Sales', 'Legal', 'People', 'Operations', 'Raw', 'Curated',
  'Deprecated', 'Certified', 'Sensitive', 'Public', 'Internal', 'Restricted', 'Daily', 'Hourly', 'Streaming', 'Batch', 'Archive', 'Experimental']
export const OWNERS: readonly string[] = Array.from({ length: 200 }, (_, k) => `urn:svc:corpuser:owner${String(k).padStart(3, '0')}`)
export const platformUrn = (platform: string) => `urn:svc:dataPlatform:${platform}`

export interface LiveDataset {
  urn: string
  platform: string
  /** The key's name (the `name` search field): `w1_w2_w3_<i>`; no dot, so browse lists it at /prod/<platform>. */
  keyName: string
  /** datasetProperties.name: `w1 w2 w3 <i>`. */
  name: string
  tags: string[]
  owner: string
}

/** Dataset `i` of the catalogue (its description is drawn apart: descriptionOf). */
export function liveDataset(i: number): LiveDataset {
  const rnd = seeded(1_000_003 * (i + 1))
  const three = [pick(rnd, WORDS), pick(rnd, WORDS), pick(rnd, WORDS)]
  const platform = pick(rnd, PLATFORMS)
  const keyName = `${three.join('_')}_${i}`
  const tags = new Set<string>()
  const nTags = between(rnd, 1, 3)
  while (tags.size < nTags) tags.add(pick(rnd, TAGS))
  return {
    urn: `urn:svc:dataset:(${platformUrn(platform)},${keyName},PROD)`, platform, keyName, name: `${three.join(' ')} ${i}`,
    tags: [...tags], owner: pick(rnd, OWNERS),
  }
}

/** A description of 8-14 vocabulary words; `revision` 0 is the loaded one, each later revision another draw. */
export function descriptionOf(i: number, revision: number): string {
  const rnd = seeded(7_919 * (i + 1) + 104_729 * revision)
  return Array.from({ length: between(rnd, 8, 14) }, () => pick(rnd, WORDS)).join(' ')
}

const proposal = (urn: string, aspectName: string, value: unknown) => ({
  entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { contentType: 'application/json', value: JSON.stringify(value) },
})

/** The datasetProperties proposal of dataset `i` at `revision` (what the write stream sends). */
export function propertiesProposal(d: LiveDataset, i: number, revision: number) {
  return proposal(d.urn, 'datasetProperties', { name: d.name, description: descriptionOf(i, revision) })
}

/** The three proposals that create dataset `i` (the first write also derives its key, browse path and platform). */
export function loadProposals(i: number) {
  const d = liveDataset(i)
  return [
    propertiesProposal(d, i, 0),
    proposal(d.urn, 'globalTags', { tags: d.tags.map((t) => ({ tag: `urn:svc:tag:${t}` })) }),
    proposal(d.urn, 'ownership', { owners: [{ owner: d.owner, type: 'DATAOWNER' }] }),
  ]
}
