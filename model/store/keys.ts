/**
 * Every Redis key the service uses, built in one place. Per-entity keys carry the urn as a hash tag (`{urn}`) so
 * that an entity's own keys share a cluster slot; index keys are global.
 */

/** Separator inside composite members (row = urn + SEP + aspect); sorts before every printable character. */
export const SEP = '\u0000'

export class Keys {
  readonly prefix: string

  constructor(prefix: string) {
    this.prefix = prefix
  }

  // ---- entity storage ------------------------------------------------------------------------------------------
  /** Hash: aspect name -> latest envelope (JSON). */
  latest(urn: string): string { return `${this.prefix}{${urn}}:a` }
  /** Hash: version number (1 = oldest) -> envelope (JSON). */
  history(urn: string, aspect: string): string { return `${this.prefix}{${urn}}:h:${aspect}` }
  /** Hash: `rev` (write counter, compare-and-set), `job` (last applied job), `v:<aspect>` (highest version). */
  meta(urn: string): string { return `${this.prefix}{${urn}}:m` }
  /** Sorted set: timeseries values by timestampMillis. */
  timeseries(urn: string, aspect: string): string { return `${this.prefix}{${urn}}:ts:${aspect}` }

  // ---- relationships -------------------------------------------------------------------------------------------
  /** Sorted set (score 0, ordered by urn): urns this entity points to through `relationship`. */
  edgesOut(urn: string, relationship: string): string { return `${this.prefix}{${urn}}:out:${relationship}` }
  /** Sorted set (score 0, ordered by urn): urns pointing to this entity through `relationship`. */
  edgesIn(urn: string, relationship: string): string { return `${this.prefix}{${urn}}:in:${relationship}` }

  // ---- catalogue-wide ------------------------------------------------------------------------------------------
  /** Sorted set (score 0): `urn SEP aspect` for every stored latest aspect: the rows restore indices walks. */
  rows(): string { return `${this.prefix}rows` }
  /** Stream: the MetadataChangeLog, one entry per applied change. */
  changeLog(): string { return `${this.prefix}mcl` }
  /** Set: `urn SEP aspect` written by a run (for rollback). */
  run(runId: string): string { return `${this.prefix}run:${runId}` }
  /** Hash: access token hash -> token record (JSON). */
  tokens(): string { return `${this.prefix}tokens` }
  /** Pub/sub channel on which a gateway hears that its write jobs were applied. */
  replies(gatewayId: string): string { return `${this.prefix}replies:${gatewayId}` }
  /** BullMQ key prefix of the write queues. */
  queuePrefix(): string { return `${this.prefix}q` }

  // ---- indexes -------------------------------------------------------------------------------------------------
  /** Hash: the entity's search document (RediSearch indexes this prefix; the native engine reads it back). */
  doc(entityType: string, urn: string): string { return `${this.prefix}doc:${entityType}:${urn}` }
  /** Key prefix of an entity type's search documents. */
  docPrefix(entityType: string): string { return `${this.prefix}doc:${entityType}:` }
  /** Name of an entity type's RediSearch index. */
  searchIndex(entityType: string): string { return `${this.prefix}idx:${entityType}` }
  /** Native engine index keys of an entity type: `ix:<type>:<kind>:<rest>`. */
  nativeIndex(entityType: string, kind: string, rest = ''): string { return `${this.prefix}ix:${entityType}:${kind}:${rest}` }
  /** Sorted set (score 0): urns listed directly at a browse path. */
  browseEntities(entityType: string, path: string): string { return `${this.prefix}br:${entityType}:e:${path}` }
  /** Hash: urn -> name of the entity at a browse path. */
  browseNames(entityType: string, path: string): string { return `${this.prefix}br:${entityType}:n:${path}` }
  /** Sorted set (score 0, lexicographic): every browse folder of an entity type that lists entities. */
  browseFolders(entityType: string): string { return `${this.prefix}br:${entityType}:folders` }
}
