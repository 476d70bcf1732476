/**
 * Relationship reads: one page of the urns on the other side of an entity's edges (several relationship types,
 * in type order then urn order), and lineage walks over them.
 */
import type { Redis } from 'ioredis'
import type { Keys } from './keys.ts'

export type Direction = 'INCOMING' | 'OUTGOING'

export interface RelationshipPage {
  total: number
  relationships: { type: string; entity: string }[]
}

export class EdgeStore {
  private readonly redis: Redis
  private readonly keys: Keys

  constructor(redis: Redis, keys: Keys) {
    this.redis = redis
    this.keys = keys
  }

  private key(urn: string, type: string, direction: Direction): string {
    return direction === 'OUTGOING' ? this.keys.edgesOut(urn, type) : this.keys.edgesIn(urn, type)
  }

  /** Entities related to `urn` through `types` in `direction`: the page [start, start+count) and the total. */
  async page(urn: string, direction: Direction, types: readonly string[], start: number, count: number): Promise<RelationshipPage> {
    const sizes = await Promise.all(types.map((t) => this.redis.zcard(this.key(urn, t, direction))))
    const total = sizes.reduce((a, b) => a + b, 0)
    const relationships: { type: string; entity: string }[] = []
    let offset = start
    for (let i = 0; i < types.length && relationships.length < count; i++) {
      if (offset >= sizes[i]!) {
        offset -= sizes[i]!
        continue
      }
      const want = count - relationships.length
      const urns = await this.redis.zrange(this.key(urn, types[i]!, direction), offset, offset + want - 1)
      relationships.push(...urns.map((entity) => ({ type: types[i]!, entity })))
      offset = 0
    }
    return { total, relationships }
  }

  /** Every neighbour of each urn through `types` in `direction`, in one round trip. */
  async neighbours(urns: readonly string[], direction: Direction, types: readonly string[]): Promise<string[][]> {
    const pipeline = this.redis.pipeline()
    for (const urn of urns) for (const t of types) pipeline.zrange(this.key(urn, t, direction), 0, -1)
    const replies = ((await pipeline.exec()) ?? []).map(([err, v]) => { if (err) throw err; return v as string[] })
    return urns.map((_, i) => [...new Set(replies.slice(i * types.length, (i + 1) * types.length).flat())])
  }
}
