/**
 * Which values of a lexicon copy (lexiconCopy.ts) hold each trigram, three consecutive code units of a lower-cased
 * form, so that CONTAIN of a needle of three or more code units checks the values under the needle's rarest trigram
 * rather than every value. Entries are the copy's value positions; nothing is ever taken out of a list: a position
 * whose value left or moved keeps its old entries (the copy checks every candidate), and a value's new position is
 * added. The copy builds the lists anew once such stale entries could outnumber the live ones.
 */

interface List {
  ids: Int32Array
  length: number
}

const EMPTY = new Int32Array(0)

/** The distinct trigrams of `s`. */
function trigramsOf(s: string): Set<string> {
  const grams = new Set<string>()
  for (let i = 0; i + 3 <= s.length; i++) grams.add(s.slice(i, i + 3))
  return grams
}

export class Trigrams {
  private readonly lists = new Map<string, List>()

  /** Lists position `id` under every trigram of `lower`. */
  add(id: number, lower: string): void {
    for (const gram of trigramsOf(lower)) {
      let list = this.lists.get(gram)
      if (!list) this.lists.set(gram, (list = { ids: new Int32Array(4), length: 0 }))
      if (list.length === list.ids.length) {
        const grown = new Int32Array(list.length * 2)
        grown.set(list.ids)
        list.ids = grown
      }
      list.ids[list.length++] = id
    }
  }

  /**
   * The positions under the rarest trigram of `needle` (three code units or more): every value holding the needle
   * is among them, with stale positions and repeats to check. Empty when a trigram of it is in no value.
   */
  candidates(needle: string): Int32Array {
    let rarest: List | undefined
    for (const gram of trigramsOf(needle)) {
      const list = this.lists.get(gram)
      if (!list) return EMPTY
      if (!rarest || list.length < rarest.length) rarest = list
    }
    return rarest ? rarest.ids.subarray(0, rarest.length) : EMPTY
  }
}
