/**
 * Answers of one index remembered in this process while the index's documents do not change. Not a cache that
 * can go stale: every lookup first reads the index's generation (bumped by the apply script in the same atomic
 * step as any document change, companions.ts) and an answer is reused only if it was computed at that very
 * generation, read before computing. A write acknowledged before a query therefore always shows in its answer.
 * Bounded (least recently used entries go first).
 */
import { generationKey, type Commands } from './companions.ts'

const MAX_ENTRIES = 512

interface Entry<T> {
  generation: string
  value: T
}

export class GenerationMemo<T> {
  private readonly entries = new Map<string, Entry<T>>()
  private readonly maxEntries: number

  constructor(maxEntries = MAX_ENTRIES) {
    this.maxEntries = maxEntries
  }

  /** The index's current generation (null: never written, nothing is remembered then). */
  static async generation(client: Commands, index: string): Promise<string | null> {
    return (await client.sendCommand(['HGET', generationKey(index), 'n'])) as string | null
  }

  /**
   * The value for `key` at `generation`: remembered if computed at that generation and `usable` accepts it,
   * else computed (after the generation was read, so it is at least that current) and remembered.
   */
  async get(key: string, generation: string | null, compute: () => Promise<T>, usable: (v: T) => boolean = () => true): Promise<T> {
    const hit = this.entries.get(key)
    if (generation !== null && hit && hit.generation === generation && usable(hit.value)) {
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit.value
    }
    const value = await compute()
    if (generation !== null) {
      this.entries.delete(key)
      this.entries.set(key, { generation, value })
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    }
    return value
  }
}
