/**
 * Answers of an index remembered in this process while the index's documents do not change. Not a cache that
 * can go stale: every lookup first reads the index's generation (bumped by the apply script in the same atomic
 * step as any document change, companions.ts) and an answer is reused only if it was computed at that very
 * generation, read before computing. A write acknowledged before a query therefore always shows in its answer.
 * Entries are keyed by (key, index) with the key outermost: the same query asked of many indexes (one per shard)
 * shares one lookup of its string. Bounded by entries and by a total weight, least recently used first.
 */
import { generationKey, type Commands } from './companions.ts'

const MAX_ENTRIES = 512
const MAX_WEIGHT = 200_000

interface Entry<T> {
  generation: string
  value: T
  weight: number
}

export class GenerationMemo<T> {
  private readonly entries = new Map<string, Map<string, Entry<T>>>()
  private readonly weightOf: (v: T) => number
  private weight = 0

  /** `weightOf` measures what a value holds (e.g. its number of hits); the memo keeps the sum bounded. */
  constructor(weightOf: (v: T) => number = () => 1) {
    this.weightOf = weightOf
  }

  /** The index's current generation (null: never written, nothing is remembered then). */
  static async generation(client: Commands, index: string): Promise<string | null> {
    return (await client.sendCommand(['HGET', generationKey(index), 'n'])) as string | null
  }

  /**
   * The value for `key` on `index`: remembered if computed at the index's current generation and `usable` accepts
   * it, else computed (after the generation was read, so it is at least that current) and remembered.
   */
  async get(client: Commands, index: string, key: string, compute: () => Promise<T>, usable: (v: T) => boolean = () => true): Promise<T> {
    const generation = await GenerationMemo.generation(client, index)
    const scopes = this.entries.get(key)
    const hit = scopes?.get(index)
    if (generation !== null && hit && hit.generation === generation && usable(hit.value)) {
      this.entries.delete(key)
      this.entries.set(key, scopes!)
      return hit.value
    }
    const value = await compute()
    if (generation !== null) {
      const current = this.entries.get(key) ?? new Map<string, Entry<T>>()
      const old = current.get(index)
      if (old) this.weight -= old.weight
      const weight = this.weightOf(value)
      current.set(index, { generation, value, weight })
      this.weight += weight
      this.entries.delete(key)
      this.entries.set(key, current)
      while (this.entries.size > 0 && (this.entries.size > MAX_ENTRIES || this.weight > MAX_WEIGHT)) this.dropOldest()
    }
    return value
  }

  private dropOldest(): void {
    const [key, scopes] = this.entries.entries().next().value!
    for (const entry of scopes.values()) this.weight -= entry.weight
    this.entries.delete(key)
  }
}
