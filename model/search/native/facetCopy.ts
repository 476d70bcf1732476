/**
 * Every document's facet values held in a gateway (indexMirror.ts), by document number, to count the facets of a
 * result from its bitmap. Values are interned: each distinct `field, lower-cased value` has an id, and a document
 * holds the ids of its values. Ids are never reused (a value no document has any more counts 0).
 */
import { FIELD_SEP, VALUE_SEP } from './entries.ts'

/** For each byte of a bitmap, the positions of its set bits (0 = the most significant, as SETBIT numbers them). */
const BITS_OF: readonly number[][] = Array.from({ length: 256 }, (_, byte) => [0, 1, 2, 3, 4, 5, 6, 7].filter((bit) => (byte & (0x80 >> bit)) !== 0))

export class FacetCopy {
  private readonly ids = new Map<string, number>()
  private readonly values: { field: string; lower: string }[] = []
  private readonly docs: (number[] | undefined)[] = []

  /** Document `number` now has the facet line `line` (entries.ts facetLine), or no document has it (undefined). */
  set(number: number, line: string | undefined): void {
    // Grown one by one, so that the array stays a plain list (an element far past its end would make it a slow
    // dictionary).
    while (this.docs.length <= number) this.docs.push(undefined)
    if (line === undefined) { this.docs[number] = undefined; return }
    const ids: number[] = []
    for (const part of line.split(FIELD_SEP)) {
      const [field, ...lowers] = part.split(VALUE_SEP)
      if (!field) continue
      for (const lower of lowers) {
        const key = `${field}\u0000${lower}`
        let id = this.ids.get(key)
        if (id === undefined) {
          id = this.values.length
          this.values.push({ field, lower })
          this.ids.set(key, id)
        }
        ids.push(id)
      }
    }
    this.docs[number] = ids
  }

  /**
   * Facet counts of the documents whose bits are set in `bitmap` (bit n = document n, most significant bit first),
   * for `fields`: per field, its values (lower-cased) with their counts, most frequent first (ties by value), at
   * most `limit`.
   */
  countBitmap(bitmap: Buffer, fields: readonly string[], limit: number): Map<string, [string, number][]> {
    const counts = new Uint32Array(this.values.length)
    for (let byte = 0; byte < bitmap.length; byte++) {
      const bits = bitmap[byte]!
      if (bits === 0) continue
      for (const bit of BITS_OF[bits]!) this.tally(counts, byte * 8 + bit)
    }
    return this.top(counts, fields, limit)
  }

  /** As countBitmap, for the documents numbered `numbers`. */
  countNumbers(numbers: readonly number[], fields: readonly string[], limit: number): Map<string, [string, number][]> {
    const counts = new Uint32Array(this.values.length)
    for (const n of numbers) this.tally(counts, n)
    return this.top(counts, fields, limit)
  }

  private tally(counts: Uint32Array, number: number): void {
    const ids = this.docs[number]
    if (ids) for (let k = 0; k < ids.length; k++) counts[ids[k]!]!++
  }

  private top(counts: Uint32Array, fields: readonly string[], limit: number): Map<string, [string, number][]> {
    const byField = new Map<string, [string, number][]>(fields.map((f) => [f, []]))
    counts.forEach((n, id) => {
      if (n === 0) return
      const { field, lower } = this.values[id]!
      byField.get(field)?.push([lower, n])
    })
    for (const [field, list] of byField) {
      list.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      byField.set(field, list.slice(0, limit))
    }
    return byField
  }
}
