/**
 * Relationship reads: one page of the urns on the other side of an entity's edges (several relationship types,
 * in type order then urn order), and lineage walks over them. Outgoing edges live in the entity's shard; incoming
 * entries live in their sources' shards, so the incoming side of an entity is gathered from every shard.
 */
import { mergeOrdered } from './gather.ts'
import type { Keys } from './keys.ts'
import { membersIfAny, type RedisClient } from './redis.ts'
import { LuaScript } from './script.ts'

const unlinkStaleScript = new LuaScript(import.meta.url, './scripts/unlink-stale-2.lua')

export type Direction = 'INCOMING' | 'OUTGOING'

export interface RelationshipPage {
  total: number
  relationships: { type: string; entity: string }[]
}

export class EdgeStore {
  private readonly redis: RedisClient
  private readonly keys: Keys

  constructor(redis: RedisClient, keys: Keys) {
    this.redis = redis
    this.keys = keys
  }

  /** The keys holding `urn`'s edges of `type` in `direction`: one outgoing key, or one incoming key per shard. */
  private keysOf(urn: string, type: string, direction: Direction): string[] {
    return direction === 'OUTGOING'
      ? [this.keys.edgesOut(urn, type)]
      : this.keys.allShards().map((shard) => this.keys.edgesIn(shard, urn, type))
  }

  /** Entities related to `urn` through `types` in `direction`: the page [start, start+count) and the total. */
  async page(urn: string, direction: Direction, types: readonly string[], start: number, count: number): Promise<RelationshipPage> {
    const perType = await Promise.all(types.map((t) => Promise.all(this.keysOf(urn, t, direction).map((k) => this.redis.zcard(k)))))
    const sizes = perType.map((s) => s.reduce((a, b) => a + b, 0))
    const total = sizes.reduce((a, b) => a + b, 0)
    const relationships: { type: string; entity: string }[] = []
    let offset = start
    for (let i = 0; i < types.length && relationships.length < count; i++) {
      if (offset >= sizes[i]!) {
        offset -= sizes[i]!
        continue
      }
      const want = count - relationships.length
      // Each shard's set is in urn order: its first offset+want members hold every candidate for the page.
      const lists = await Promise.all(this.keysOf(urn, types[i]!, direction).map((k) => this.redis.zrange(k, 0, offset + want - 1)))
      const urns = mergeOrdered(lists, offset + want).slice(offset)
      relationships.push(...urns.map((entity) => ({ type: types[i]!, entity })))
      offset = 0
    }
    return { total, relationships }
  }

  /** Every neighbour of each urn through `types` in `direction`. */
  async neighbours(urns: readonly string[], direction: Direction, types: readonly string[]): Promise<string[][]> {
    return Promise.all(urns.map(async (urn) => {
      const lists = await Promise.all(types.flatMap((t) => this.keysOf(urn, t, direction)).map((k) => this.redis.zrange(k, 0, -1)))
      return [...new Set(lists.flat())]
    }))
  }

  /** The sources of every incoming edge of `urn`, by relationship, gathered from every shard. */
  async incomingSources(urn: string, types: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>()
    await Promise.all(types.map(async (type) => {
      const lists = await Promise.all(this.keysOf(urn, type, 'INCOMING').map((k) => this.redis.zrange(k, 0, -1)))
      const sources = lists.flat()
      if (sources.length > 0) found.set(type, sources)
    }))
    return found
  }

  /**
   * Drops incoming entries of `urn` (through `types`, in every shard) whose source no longer points here. Each
   * entry is checked with one read; only an entry that looks stale is removed, by a script that checks again. A
   * shard is first asked whether it holds any of the entries at all (one `EXISTS` of its keys, all in its slot): a
   * type of entity has dozens of incoming types, and most entities have no incoming entry of most.
   */
  async dropStaleIncoming(urn: string, types: readonly string[]): Promise<number> {
    const entries = (await Promise.all(this.keys.allShards().map(async (shard) => {
      const inKeys = types.map((type) => this.keys.edgesIn(shard, urn, type))
      const lists = await membersIfAny(this.redis, inKeys)
      return lists.flatMap((sources, t) => sources.map((source) => ({ type: types[t]!, shard, inKey: inKeys[t]!, source })))
    }))).flat()
    if (entries.length === 0) return 0
    const backed = await Promise.all(entries.map((e) => this.keys.shardOf(e.source) === e.shard ? this.redis.zscore(this.keys.edgesOut(e.source, e.type), urn) : null))
    let dropped = 0
    for (const [i, e] of entries.entries()) {
      if (backed[i] !== null) continue
      // An entry outside its source's shard cannot be backed by it (written by hand or by an older layout).
      if (this.keys.shardOf(e.source) !== e.shard) dropped += await this.redis.zrem(e.inKey, e.source)
      else dropped += Number(await unlinkStaleScript.run(this.redis, [e.inKey, this.keys.edgesOut(e.source, e.type)], [e.source, urn]))
    }
    return dropped
  }
}
