/**
 * Every Redis key the service uses, built in one place. The data is cut into shards (model/store/shards.ts):
 * every key derived from an entity carries its shard's hash tag (`<prefix>{<tag>}:...`), and so do the per-shard
 * indexes, entity lists, change logs and run records, so one entity's whole change lies in one cluster slot. Only a
 * few keys are catalogue-wide (tokens, the layout record); the write queues carry their own hash tags.
 */
import { shardOf, shardTags } from './shards.ts'

/** Separator inside composite members (a row of restore = urn + SEP + aspect); sorts before every printable character. */
export const SEP = '\u0000'

/**
 * Version of the key layout; the layout record says which one a store uses. Layout 1 (before shards) is moved by
 * ops/cli/migrate.ts; layout 2 (a row list of every latest aspect, `rows`) is brought to 3 at start-up
 * (model/store/entityListUpgrade.ts).
 */
export const LAYOUT_VERSION = 3

export class Keys {
  readonly prefix: string
  readonly shards: number
  private readonly tags: string[]

  constructor(prefix: string, shards = 1) {
    this.prefix = prefix
    this.shards = shards
    this.tags = shardTags(shards)
  }

  /** Every shard number, 0 .. shards-1. */
  allShards(): number[] {
    return this.tags.map((_, i) => i)
  }

  /** The urn whose shard was asked last, and its shard. */
  private lastUrn = ''
  private lastShard = 0

  /**
   * The shard of a urn. Planning an entity's change names its keys one after another (a new dataset's apply names
   * ~40), each asking for the urn's shard: the last urn's is kept, rather than hashed again each time.
   */
  shardOf(urn: string): number {
    if (this.shards === 1) return 0
    if (urn !== this.lastUrn) {
      this.lastShard = shardOf(urn, this.shards)
      this.lastUrn = urn
    }
    return this.lastShard
  }

  /** The key prefix of a shard: `<prefix>{<tag>}:`. */
  shardPrefix(shard: number): string {
    return `${this.prefix}{${this.tags[shard]}}:`
  }

  private of(urn: string): string {
    return this.shardPrefix(this.shardOf(urn))
  }

  // ---- entity storage (the entity's shard) -----------------------------------------------------------------------
  /** Hash: aspect name -> latest envelope (JSON). */
  latest(urn: string): string { return `${this.of(urn)}a:${urn}` }
  /** Hash: version number (1 = oldest) -> envelope (JSON). */
  history(urn: string, aspect: string): string { return `${this.of(urn)}h:${aspect}:${urn}` }
  /** Hash: `rev` (write counter, compare-and-set), `job` (last applied job), `v:<aspect>` (highest version). */
  meta(urn: string): string { return `${this.of(urn)}m:${urn}` }
  /** Sorted set: timeseries values by timestampMillis. */
  timeseries(urn: string, aspect: string): string { return `${this.of(urn)}ts:${aspect}:${urn}` }

  // ---- relationships ---------------------------------------------------------------------------------------------
  /** Sorted set (score 0, ordered by urn): urns `source` points to through `relationship` (the source's shard). */
  edgesOut(source: string, relationship: string): string { return `${this.of(source)}out:${relationship}:${source}` }
  /**
   * Sorted set (score 0, ordered by urn): the sources in `shard` pointing to `target` through `relationship`.
   * An edge's incoming entry lives in its source's shard, so the source's change stays in one slot; the incoming
   * side of a target is the union over every shard.
   */
  edgesIn(shard: number, target: string, relationship: string): string { return `${this.shardPrefix(shard)}in:${relationship}:${target}` }

  // ---- per shard -------------------------------------------------------------------------------------------------
  /**
   * Sorted set (score 0, urn order): every entity of the shard with a stored latest aspect. Restore walks its rows
   * from it: each entity's aspects are the fields of its latest hash, in name order (model/services/restoreRows.ts).
   */
  entities(shard: number): string { return `${this.shardPrefix(shard)}entities` }
  /** The row list of layout 2 (`urn SEP aspect` of every latest aspect), read only to bring a store to layout 3. */
  rowList(shard: number): string { return `${this.shardPrefix(shard)}rows` }
  /** Stream: the shard's MetadataChangeLog, one entry per applied change, in order per entity. */
  changeLog(shard: number): string { return `${this.shardPrefix(shard)}mcl` }
  /** Set: `urn SEP aspect` written by a run in the shard (for rollback). */
  run(shard: number, runId: string): string { return `${this.shardPrefix(shard)}run:${runId}` }
  /** Prefix for a search script's temporary keys in a shard. */
  temporary(shard: number): string { return `${this.shardPrefix(shard)}tmp:` }

  // ---- search and browse indexes (per shard) ---------------------------------------------------------------------
  /** Hash: the entity's search document (RediSearch indexes this prefix; the native engine reads it back). */
  doc(entityType: string, urn: string): string { return `${this.docPrefix(this.shardOf(urn), entityType)}${urn}` }
  /** Key prefix of an entity type's search documents in a shard. */
  docPrefix(shard: number, entityType: string): string { return `${this.documentsPrefix(shard)}${entityType}:` }
  /** What every search document's key in a shard begins with (then `<entity type>:<urn>`). */
  documentsPrefix(shard: number): string { return `${this.shardPrefix(shard)}doc:` }
  /** Name of an entity type's RediSearch index in a shard (it carries the shard's tag: routed to its node). */
  searchIndex(shard: number, entityType: string): string { return `${this.shardPrefix(shard)}idx:${entityType}` }
  /** Native engine index keys of an entity type in a shard: `ix:<type>:<kind>:<rest>`. */
  nativeIndex(shard: number, entityType: string, kind: string, rest = ''): string { return `${this.shardPrefix(shard)}ix:${entityType}:${kind}:${rest}` }
  /** Sorted set (score 0): urns listed directly at a browse path. */
  browseEntities(shard: number, entityType: string, path: string): string { return `${this.shardPrefix(shard)}br:${entityType}:e:${path}` }
  /** Hash: urn -> name of the entity at a browse path. */
  browseNames(shard: number, entityType: string, path: string): string { return `${this.shardPrefix(shard)}br:${entityType}:n:${path}` }
  /** Sorted set (score 0, lexicographic): every browse folder of an entity type that lists entities in the shard. */
  browseFolders(shard: number, entityType: string): string { return `${this.shardPrefix(shard)}br:${entityType}:folders` }

  // ---- catalogue-wide --------------------------------------------------------------------------------------------
  /** Hash: the key layout of this store (`version`, `shards`), checked at start-up. */
  layout(): string { return `${this.prefix}layout` }
  /** Hash: access token hash -> token record (JSON). */
  tokens(): string { return `${this.prefix}tokens` }
  /** Hash: token id -> when it was last used (epoch ms, written at most once a minute per token and process). */
  tokensUsed(): string { return `${this.prefix}tokens:used` }
  /** String (JSON WriteOutcome, expiring): how asynchronous write `id` ended, for `GET /writes/<id>`. */
  writeRecord(id: string): string { return `${this.prefix}write:${id}` }
  /** Set (expiring): ids of the asynchronous writes a v3 request of trace `traceId` queued (write tracing). */
  traceWrites(traceId: string): string { return `${this.prefix}trace:${traceId}` }
  /**
   * String (expiring): the last row of a restore batch that answered `nextStart` `start` for filters of digest
   * `filters`, so that the call asking for that `start` reads on from that row (model/services/restore.ts).
   */
  restoreContinuation(filters: string, start: number): string { return `${this.prefix}restore:after:${filters}:${start}` }
  /** Pub/sub channel on which a gateway hears that its write jobs were applied. */
  replies(gatewayId: string): string { return `${this.prefix}replies:${gatewayId}` }
  /** BullMQ key prefix of the write queues (each queue name carries its own hash tag: model/jobs.ts queueName). */
  queuePrefix(): string { return `${this.prefix}q` }
}
