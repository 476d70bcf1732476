/**
 * Every document's facet values held in a gateway (indexMirror.ts), by document number, to count the facets of a
 * result from its bitmap or its documents' numbers. Values are interned in a dictionary that the copies of one type's
 * index in every shard share (FacetValues): each distinct `field, lower-cased value` has one id in all of them, so
 * that the shards' counts (an array by id) are summed by adding arrays, not by looking values up. A document holds
 * the ids of its values. Ids are never reused (a value no document has any more counts 0).
 */
import { FIELD_SEP, VALUE_SEP } from './entries.ts'
import { byCodeUnits } from './sortedEntries.ts'
import { urnId } from '../../urn.ts'

/** Whether bit `n` of a bitmap is set (bit n = document n, most significant bit first, as Redis's SETBIT numbers them). */
export const hasBit = (bitmap: Uint8Array, n: number): boolean => (n >> 3) < bitmap.length && (bitmap[n >> 3]! & (0x80 >> (n & 7))) !== 0

/** Counts of facet values by id (FacetValues), as a copy counts them. */
export type ValueCounts = Uint32Array

/** The facet values of one type's index in every shard, each with an id. */
export class FacetValues {
  private readonly ids = new Map<string, number>()
  private readonly values: { field: string; lower: string }[] = []
  /** Each field's value ids. */
  private readonly byField = new Map<string, number[]>()
  /** Each id's value's urn id, lower-cased (urnIdOf), once asked. */
  private readonly urnIds: string[] = []
  private ranked?: Uint32Array

  /** The id of `lower` in `field`, given one when it has none. */
  id(field: string, lower: string): number {
    const key = `${field}\u0000${lower}`
    let id = this.ids.get(key)
    if (id === undefined) {
      id = this.values.length
      this.values.push({ field, lower })
      this.ids.set(key, id)
      const ofField = this.byField.get(field)
      if (ofField) ofField.push(id)
      else this.byField.set(field, [id])
    }
    return id
  }

  /** The lower-cased value of id `id`. */
  lower(id: number): string {
    return this.values[id]!.lower
  }

  /**
   * The lower-cased id part of the value of `id` read as a urn (`s3` for `urn:svc:dataplatform:s3`: urn.ts urnId),
   * worked out once: a filter on a URN field compares it for every value of the field in every shard.
   */
  urnIdOf(id: number): string {
    return (this.urnIds[id] ??= urnId(this.values[id]!.lower).toLowerCase())
  }

  /** The ids of `field`'s values. */
  idsOf(field: string): readonly number[] {
    return this.byField.get(field) ?? []
  }

  /** How many ids have been given (the length of a ValueCounts that counts every value). */
  get size(): number {
    return this.values.length
  }

  /**
   * Each id's place in the code-unit order of the lower-cased values (for ordering values of equal counts by
   * comparing two numbers rather than two strings); made again once new ids were given.
   */
  ranks(): Uint32Array {
    if (this.ranked?.length !== this.values.length) {
      const order = this.values.map((_, id) => id).sort((a, b) => byCodeUnits(this.values[a]!.lower, this.values[b]!.lower))
      this.ranked = new Uint32Array(order.length)
      order.forEach((id, place) => { this.ranked![id] = place })
    }
    return this.ranked
  }

}

/** Told of every change of a document's values once the copy is loaded (facetTallies.ts). */
export interface FacetListener {
  /** Document `number` had the values `before` (ids) and now has `now`. */
  valuesChanged(number: number, before: ArrayLike<number>, now: ArrayLike<number>): void
}

export class FacetCopy {
  readonly values: FacetValues
  /** Told of every change of a document's values (facetTallies.ts, stretchCounts.ts). */
  private readonly listeners = new Set<FacetListener>()

  constructor(values = new FacetValues()) {
    this.values = values
  }

  /**
   * Every document's value ids, packed: document n's are `packed[start[n] .. start[n] + size[n])`. A new line is
   * appended at the end (its old ids are left behind); when the end is reached, the live ids are packed again into
   * an array twice their size. Counting reads two typed arrays, not one small array per document.
   */
  private packed = new Int32Array(1024)
  private used = 0
  private live = 0
  private start = new Int32Array(1024)
  private size = new Int32Array(1024)
  /** Every value's count over all the documents, and how many documents have values: a large result is counted by its complement. */
  private totals: Uint32Array = new Uint32Array(0)
  private documents = 0

  /** Changes of any document's values (an answer whose filter read values is still the answer while it stays). */
  generation = 0

  /** Document `number` now has the facet line `line` (entries.ts facetLine), or no document has it (undefined). */
  set(number: number, line: string | undefined): void {
    this.generation++
    if (number >= this.start.length) this.grow(number + 1)
    const had = this.size[number]!
    const before = this.listeners.size > 0 && had > 0 ? this.packed.slice(this.start[number]!, this.start[number]! + had) : EMPTY
    for (let k = this.start[number]!, to = k + had; k < to; k++) this.totals[this.packed[k]!]!--
    if (had > 0) this.documents--
    this.live -= had
    this.size[number] = 0
    if (line === undefined) {
      if (had > 0) for (const l of this.listeners) l.valuesChanged(number, before, EMPTY)
      return
    }
    const ids: number[] = []
    for (const part of line.split(FIELD_SEP)) {
      const [field, ...lowers] = part.split(VALUE_SEP)
      if (!field) continue
      for (const lower of lowers) ids.push(this.values.id(field, lower))
    }
    if (this.totals.length < this.values.size) this.totals = grown(this.totals, this.values.size)
    for (const id of ids) this.totals[id]!++
    if (ids.length > 0) this.documents++
    if (this.used + ids.length > this.packed.length) this.repack(ids.length)
    this.packed.set(ids, this.used)
    this.start[number] = this.used
    this.size[number] = ids.length
    this.used += ids.length
    this.live += ids.length
    for (const l of this.listeners) l.valuesChanged(number, before, ids)
  }

  /** Tells `listener` of every change of a document's values from now on. */
  follow(listener: FacetListener): void {
    this.listeners.add(listener)
  }

  /** Stops telling `listener`. */
  unfollow(listener: FacetListener): void {
    this.listeners.delete(listener)
  }

  /** Document `number`'s value ids (a view: not to be kept past the next change). */
  idsOf(number: number): Int32Array {
    if (number >= this.size.length || this.size[number] === 0) return EMPTY
    return this.packed.subarray(this.start[number]!, this.start[number]! + this.size[number]!)
  }

  /** How many documents have each value (a copy, by id: a match-all's counts). */
  totalCounts(): ValueCounts {
    const counts = new Uint32Array(this.values.size)
    counts.set(this.totals.subarray(0, counts.length))
    return counts
  }

  /** How many documents have value `id`. */
  total(id: number): number {
    return this.totals[id] ?? 0
  }

  /** The documents that have value `id`, as a bitmap (bit n = document n, most significant bit first): every document read once. */
  bitmapHaving(id: number): Uint8Array {
    const bitmap = new Uint8Array((this.size.length >> 3) + 1)
    for (let n = 0; n < this.size.length; n++) if (this.has(n, id)) bitmap[n >> 3]! |= 0x80 >> (n & 7)
    return bitmap
  }

  /** Facet counts of the documents that have value `id`: every document read once. */
  countHaving(id: number): ValueCounts {
    const counts = new Uint32Array(this.values.size)
    for (let n = 0; n < this.size.length; n++) if (this.has(n, id)) this.addDocument(counts, n, 1)
    return counts
  }

  /** Whether document `number` has value `id`. */
  private has(number: number, id: number): boolean {
    for (let k = this.start[number]!, to = k + this.size[number]!; k < to; k++) if (this.packed[k] === id) return true
    return false
  }

  /** Room for documents up to `count`. */
  private grow(count: number): void {
    const length = Math.max(count, 2 * this.start.length)
    const start = new Int32Array(length)
    const size = new Int32Array(length)
    start.set(this.start)
    size.set(this.size)
    this.start = start
    this.size = size
  }

  /** Packs the live ids to the front (into a larger array when they fill half of it), with room for `more`. */
  private repack(more: number): void {
    const packed = new Int32Array(Math.max(1024, 2 * (this.live + more)))
    let at = 0
    for (let n = 0; n < this.size.length; n++) {
      const k = this.size[n]!
      if (k === 0) continue
      packed.set(this.packed.subarray(this.start[n]!, this.start[n]! + k), at)
      this.start[n] = at
      at += k
    }
    this.packed = packed
    this.used = at
  }

  /**
   * Facet counts of the documents whose bits are set in `bitmap` (bit n = document n, most significant bit first):
   * every value's count by its id (the shards' counts are summed and ordered once: NativeEngine.facetsOf).
   */
  countBitmap(bitmap: Buffer, count?: number): ValueCounts {
    if (count !== undefined && 2 * count > this.documents) return this.countComplement(bitmap)
    return this.countBits(bitmap, false)
  }

  /**
   * As countBitmap, for a bitmap of more than half the documents (`count` given: its documents): every value's
   * total less its count over the documents the bitmap lacks, so that the documents read are the fewer half.
   */
  private countComplement(bitmap: Buffer): ValueCounts {
    const counts = this.countBits(bitmap, true)
    for (let id = 0; id < counts.length; id++) counts[id] = (this.totals[id] ?? 0) - counts[id]!
    return counts
  }

  /**
   * The counts of the documents whose bits `bitmap` sets (`lacking`: does not set), read by byte, visiting only those
   * bits (a test per document number cost more than the counting).
   */
  private countBits(bitmap: Buffer, lacking: boolean): ValueCounts {
    const counts = new Uint32Array(this.values.size)
    for (let byte = 0, bytes = Math.ceil(this.size.length / 8); byte < bytes; byte++) {
      const set = byte < bitmap.length ? bitmap[byte]! : 0
      let bits = lacking ? ~set & 0xff : set
      while (bits !== 0) {
        const bit = Math.clz32(bits) - 24
        bits ^= 0x80 >> bit
        this.addDocument(counts, byte * 8 + bit, 1)
      }
    }
    return counts
  }

  /** Packs the documents' ids in the order of their numbers (counting a bitmap then reads them in order). */
  compact(): void {
    this.repack(0)
  }

  /** As countBitmap, for the documents numbered `numbers` (a posting as it is: no copy into an array). */
  countNumbers(numbers: ArrayLike<number>): ValueCounts {
    const counts = new Uint32Array(this.values.size)
    for (let i = 0; i < numbers.length; i++) this.addDocument(counts, numbers[i]!, 1)
    return counts
  }

  /** Value ids `ids` marked (mask[id] === 1), for hasMarked. */
  valueMask(ids: readonly number[]): Uint8Array {
    const mask = new Uint8Array(this.values.size)
    for (const id of ids) mask[id] = 1
    return mask
  }

  /** Whether document `number` has one of the values `mask` marks (valueMask): a byte read per value it has. */
  hasMarked(number: number, mask: Uint8Array): boolean {
    if (number >= this.size.length) return false
    for (let k = this.start[number]!, to = k + this.size[number]!; k < to; k++) if (mask[this.packed[k]!] === 1) return true
    return false
  }

  /** Adds `by` (1 or -1) to the counts of document `number`'s values in `counts`. */
  addDocument(counts: Uint32Array, number: number, by: number): void {
    if (number >= this.size.length) return
    for (let k = this.start[number]!, to = k + this.size[number]!; k < to; k++) counts[this.packed[k]!]! += by
  }
}

const EMPTY = new Int32Array(0)

/** `counts` with room for `length` (the new ones 0). */
function grown(counts: Uint32Array, length: number): Uint32Array {
  const out = new Uint32Array(Math.max(length, 2 * counts.length))
  out.set(counts)
  return out
}
