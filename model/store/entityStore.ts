/**
 * Redis access for entities: reading latest aspects, versions and timeseries for the API, reading an entity's
 * state for the worker, and applying a planned change with the compare-and-set apply script (then waiting for
 * replica acknowledgements when the deployment asks for them).
 */
import type { EntityState } from '../derive/change.ts'
import type { Envelope } from '../derive/envelope.ts'
import { CatalogError } from '../errors.ts'
import type { Keys } from './keys.ts'
import { encodeOps, type Op } from './ops.ts'
import type { Indexed } from './planRestate.ts'
import { membersIfAny, type RedisClient } from './redis.ts'
import { LuaScript, type Durability } from './script.ts'

const applyScript = new LuaScript(import.meta.url, './scripts/apply.lua')

/** Outcome of an apply: applied, already applied by this job earlier (a retry), or conflict (recompute). */
export type ApplyOutcome = 'applied' | 'duplicate' | 'conflict'

const parseEnvelopes = (hash: Record<string, string>): Map<string, Envelope> =>
  new Map(Object.entries(hash).map(([aspect, json]) => [aspect, JSON.parse(json) as Envelope]))

export const NO_REPLICAS: Durability = { replicas: 0, timeoutMs: 0, waitAof: false }

export class EntityStore {
  readonly redis: RedisClient
  readonly keys: Keys
  private readonly durability: Durability

  constructor(redis: RedisClient, keys: Keys, durability: Durability = NO_REPLICAS) {
    this.redis = redis
    this.keys = keys
    this.durability = durability
  }

  /** Latest envelopes of an entity: all, or only `aspects`. */
  async latest(urn: string, aspects?: readonly string[]): Promise<Map<string, Envelope>> {
    if (!aspects) return parseEnvelopes(await this.redis.hgetall(this.keys.latest(urn)))
    if (aspects.length === 0) return new Map()
    const values = await this.redis.hmget(this.keys.latest(urn), ...aspects)
    const found = new Map<string, Envelope>()
    aspects.forEach((aspect, i) => {
      const json = values[i]
      if (json) found.set(aspect, JSON.parse(json) as Envelope)
    })
    return found
  }

  /** Latest envelopes of several entities (one command each; they go out together, grouped per node). */
  async latestMany(urns: readonly string[]): Promise<Map<string, Envelope>[]> {
    return Promise.all(urns.map(async (urn) => parseEnvelopes(await this.redis.hgetall(this.keys.latest(urn)))))
  }

  /** One version of an aspect (0 = latest), or undefined. */
  async version(urn: string, aspect: string, version: number): Promise<Envelope | undefined> {
    const json = version === 0
      ? await this.redis.hget(this.keys.latest(urn), aspect)
      : await this.redis.hget(this.keys.history(urn, aspect), String(version))
    return json ? (JSON.parse(json) as Envelope) : undefined
  }

  /** Timeseries values (JSON strings) with start <= timestampMillis <= end, newest first, at most `limit`. */
  async timeseries(urn: string, aspect: string, start: number, end: number, limit: number): Promise<string[]> {
    return this.redis.zrevrangebyscore(this.keys.timeseries(urn, aspect), end, start, 'LIMIT', 0, limit)
  }

  /** What the worker needs to compute a change: latest aspects, rev, versions (and histories when asked). */
  async state(urn: string, withHistories = false): Promise<EntityState> {
    const [latestHash, metaHash] = await Promise.all([
      this.redis.hgetall(this.keys.latest(urn)),
      this.redis.hgetall(this.keys.meta(urn)),
    ])
    const versions = new Map<string, number>()
    for (const [field, value] of Object.entries(metaHash)) {
      if (field.startsWith('v:')) versions.set(field.slice(2), Number(value))
    }
    const state: EntityState = { latest: parseEnvelopes(latestHash), rev: Number(metaHash.rev ?? 0), versions }
    if (withHistories) {
      state.histories = new Map()
      for (const aspect of versions.keys()) {
        const hash = await this.redis.hgetall(this.keys.history(urn, aspect))
        state.histories.set(aspect, new Map(Object.entries(hash).map(([v, json]) => [Number(v), JSON.parse(json) as Envelope])))
      }
    }
    return state
  }

  /** What the index holds for an entity now (restore compares it with what its rows derive). */
  async indexed(urn: string, entityType: string, outgoing: readonly string[]): Promise<Indexed> {
    // An entity has edges of few of its dozen or so outgoing types, often none (all its keys are in its slot).
    const [latest, rev, doc, edges] = await Promise.all([
      this.redis.hgetall(this.keys.latest(urn)),
      this.redis.hget(this.keys.meta(urn), 'rev'),
      this.redis.hget(this.keys.doc(entityType, urn), 'd'),
      membersIfAny(this.redis, outgoing.map((type) => this.keys.edgesOut(urn, type))),
    ])
    return {
      rev: Number(rev ?? 0),
      latest: parseEnvelopes(latest as Record<string, string>),
      doc: doc ? { urn, entityType, fields: JSON.parse(doc as string) as Record<string, string[]> } : null,
      outEdges: outgoing.flatMap((type, i) => edges[i]!.map((target) => ({ type, target }))),
    }
  }

  /**
   * Applies `ops` if the entity's rev is still `rev`; `jobId` makes a retried job a no-op. With replica
   * acknowledgements configured, an apply counts only once they came (a retry of the job waits for them again).
   */
  async apply(urn: string, rev: number, jobId: string, ops: readonly Op[]): Promise<ApplyOutcome> {
    const encoded = encodeOps([this.keys.meta(urn)], ops)
    const { reply, acked } = await applyScript.runDurably(this.redis, encoded.keys, [String(rev), jobId, encoded.ops], this.durability)
    const code = (reply as [number, string])[0]
    const outcome = code === 1 ? 'applied' : code === 0 ? 'duplicate' : 'conflict'
    if (outcome !== 'conflict' && acked < this.durability.replicas) {
      throw new CatalogError('NOT_REPLICATED', `the write to ${urn} was applied on its primary but acknowledged by ${acked} of ${this.durability.replicas} replicas within ${this.durability.timeoutMs} ms`, [], 1)
    }
    return outcome
  }
}
