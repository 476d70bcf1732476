/**
 * Redis access for entities: reading latest aspects, versions and timeseries for the API, reading an entity's
 * state for the worker, and applying a planned change with the compare-and-set apply script.
 */
import type { Redis } from 'ioredis'
import type { EntityState } from '../derive/change.ts'
import type { Envelope } from '../derive/envelope.ts'
import type { Keys } from './keys.ts'
import { encodeOps, type Op } from './ops.ts'
import { LuaScript } from './script.ts'

const applyScript = new LuaScript(import.meta.url, './scripts/apply-1.lua')

/** Outcome of an apply: applied, already applied by this job earlier (a retry), or conflict (recompute). */
export type ApplyOutcome = 'applied' | 'duplicate' | 'conflict'

const parseEnvelopes = (hash: Record<string, string>): Map<string, Envelope> =>
  new Map(Object.entries(hash).map(([aspect, json]) => [aspect, JSON.parse(json) as Envelope]))

export class EntityStore {
  readonly redis: Redis
  readonly keys: Keys

  constructor(redis: Redis, keys: Keys) {
    this.redis = redis
    this.keys = keys
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

  /** Latest envelopes of several entities, in one round trip. */
  async latestMany(urns: readonly string[]): Promise<Map<string, Envelope>[]> {
    if (urns.length === 0) return []
    const pipeline = this.redis.pipeline()
    for (const urn of urns) pipeline.hgetall(this.keys.latest(urn))
    const replies = (await pipeline.exec()) ?? []
    return replies.map(([err, hash]) => {
      if (err) throw err
      return parseEnvelopes(hash as Record<string, string>)
    })
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

  /** Sources of every incoming edge of `urn`, by relationship name. */
  async incoming(urn: string, relationships: readonly string[]): Promise<Map<string, string[]>> {
    const pipeline = this.redis.pipeline()
    for (const rel of relationships) pipeline.zrange(this.keys.edgesIn(urn, rel), 0, -1)
    const replies = (await pipeline.exec()) ?? []
    const found = new Map<string, string[]>()
    replies.forEach(([err, sources], i) => {
      if (err) throw err
      if ((sources as string[]).length > 0) found.set(relationships[i]!, sources as string[])
    })
    return found
  }

  /** Applies several entities' ops in one pipeline (no job id); one outcome per entity, in order. */
  async applyMany(changes: readonly { urn: string; rev: number; ops: readonly Op[] }[]): Promise<ApplyOutcome[]> {
    if (changes.length === 0) return []
    await applyScript.load(this.redis)
    const pipeline = this.redis.pipeline()
    for (const c of changes) pipeline.evalsha(applyScript.sha, 1, this.keys.meta(c.urn), String(c.rev), '', ...encodeOps(c.ops))
    const replies = (await pipeline.exec()) ?? []
    return replies.map(([err, reply]) => {
      if (err) throw err
      const code = (reply as [number, string])[0]
      return code === 1 ? 'applied' : code === 0 ? 'duplicate' : 'conflict'
    })
  }

  /** Applies `ops` if the entity's rev is still `rev`; `jobId` makes a retried job a no-op. */
  async apply(urn: string, rev: number, jobId: string, ops: readonly Op[]): Promise<ApplyOutcome> {
    const reply = (await applyScript.run(this.redis, [this.keys.meta(urn)], [String(rev), jobId, ...encodeOps(ops)])) as [number, string]
    return reply[0] === 1 ? 'applied' : reply[0] === 0 ? 'duplicate' : 'conflict'
  }
}
