/**
 * Every document's words held in a gateway (indexMirror.ts), by document number, read from the index's `words:`
 * hash: each word's documents kept as a posting in its order (score, then urn: minus the relevance, ascending),
 * with each document's own words and scores, so that a query of words is answered here (wordQuery.ts) and costs
 * Redis nothing but the change log's read. The apply script keeps and logs a document's words whole whenever they
 * change (WORDLOG: documentOps.ts); a removed document's number is logged alone (UNDOC).
 */
import { SortedEntries } from './sortedEntries.ts'
import type { StampedMarks } from './stampedMarks.ts'
import { UrnKeys } from './urnKeys.ts'

const WORD_SEP = '\u001e'
const SCORE_SEP = '\u001f'

/** A document's words as a WORDLOG entry carries them: `token SCORE_SEP score WORD_SEP ...` (scores as stored). */
export function encodeWords(tokens: ReadonlyMap<string, number>): string {
  return [...tokens].map(([token, score]) => `${token}${SCORE_SEP}${-score}`).join(WORD_SEP)
}

/** A document's words (encodeWords) and their scores (minus the relevance). */
function decodeWords(words: string): Map<string, number> {
  const scores = new Map<string, number>()
  for (const part of words === '' ? [] : words.split(WORD_SEP)) {
    const cut = part.indexOf(SCORE_SEP)
    scores.set(part.slice(0, cut), Number(part.slice(cut + 1)))
  }
  return scores
}

/** Changes of a posting waiting to be merged: documents joining (with their scores), and positions leaving. */
interface Waiting {
  numbers: number[]
  scores: number[]
  leaving: Set<number>
}

/** Changes that may wait to join or leave a posting, at least (more wait in a posting of more than 16 times as many). */
const MIN_WAITING = 64

/** Whether `count` changes waiting beside a posting of `merged` documents are many enough to merge now. */
const manyWaiting = (count: number, merged: number): boolean => count > Math.max(MIN_WAITING, merged >> 4)

/** A document: its urn, and its words (ids) with their scores (minus the relevance), side by side. */
interface WordDocument {
  urn: string
  ids: number[]
  scores: number[]
}

/** Told of every document that enters or leaves a word's posting once the copy is sealed (facetTallies.ts). */
export interface WordListener {
  joined(number: number, id: number): void
  left(number: number, id: number): void
  /** Word `id` has no document any more: the id may be given to another word. */
  released(id: number): void
}

export class WordCopy {
  listener?: WordListener
  /** By document number; kept dense (holes are `undefined`): a sparse array turns into a slow dictionary. */
  private readonly documents: (WordDocument | undefined)[] = []
  /** Each word's id; ids of words no document has any more are reused. */
  private readonly ids = new Map<string, number>()
  private readonly wordOf: string[] = []
  private readonly freeIds: number[] = []
  /**
   * Each word's documents (numbers) in the posting's order, by word id: the first `merged[id]` of a typed array with
   * room to spare. Changes wait beside it (`waiting`) until the posting is read or they are many (settle): a document
   * placed in a posting one at a time moved half of it, and a word every document has (`prod`; a platform's name, a
   * twelfth) made each new document cost the copy ~300 us at 100,000 datasets and 4-7 ms at 1,000,000
   * (ops/bench/wordCopyWrites.ts).
   */
  private postings: Int32Array[] = []
  /**
   * Each posting's scores, side by side with its numbers: a write places a document in a posting by a binary
   * search that reads them here, not in each visited document's own words.
   */
  private postingScores: Float64Array[] = []
  /** How many of each posting's typed array are its merged documents (those marked to leave included). */
  private readonly merged: number[] = []
  /** Each posting's documents, with the changes waiting (what a reader sees once they are merged). */
  private readonly lengths: number[] = []
  /** Each posting's changes waiting to be merged (its lists are emptied by a merge, and kept). */
  private readonly waiting: (Waiting | undefined)[] = []
  /** While a copy is loaded (before seal): each word's numbers and scores as read. */
  private loading: { numbers: number[]; scores: number[] }[] = []

  /** Every word of the copy so far, in order (made when the copy is sealed). */
  private words = new SortedEntries([])
  /**
   * Changes of each word id's posting (a document joined or left it, or moved in it), and of the set of words: an
   * answer worked out before the copy caught up is still the answer when its words' counts did not move (stamp).
   */
  private readonly changes: number[] = []
  private vocabulary = 0
  /** Each document's place in the urns' order, as a number (urnKeys.ts): a posting's ties compare these. */
  private readonly urnKeys = new UrnKeys((number) => this.documents[number]?.urn)

  /**
   * Adds document `number`, `urn` with `words` (encodeWords), as read whole: a copy is loaded document by document,
   * then sealed once (which puts every posting in order) before it is read or changed.
   */
  loadDocument(number: number, urn: string, words: string): void {
    const doc: WordDocument = { urn, ids: [], scores: [] }
    this.put(number, doc)
    for (const [word, score] of decodeWords(words)) {
      const id = this.idFor(word)
      doc.ids.push(id)
      doc.scores.push(score)
      const loading = (this.loading[id] ??= { numbers: [], scores: [] })
      loading.numbers.push(number)
      loading.scores.push(score)
    }
  }

  seal(): void {
    const documents: [number, string][] = []
    this.documents.forEach((doc, number) => { if (doc) documents.push([number, doc.urn]) })
    this.urnKeys.build(documents)
    const key = (number: number) => this.urnKeys.keyOf(number)
    this.loading.forEach(({ numbers, scores }, id) => {
      const order = numbers.map((_, k) => k).sort((a, b) => scores[a]! - scores[b]! || key(numbers[a]!) - key(numbers[b]!))
      // Room for an eighth more: the changes that wait (a sixteenth) then merge without a new array.
      const room = order.length + (order.length >> 3) + 4
      const posting = (this.postings[id] = new Int32Array(room))
      const postingScores = (this.postingScores[id] = new Float64Array(room))
      order.forEach((k, at) => {
        posting[at] = numbers[k]!
        postingScores[at] = scores[k]!
      })
      this.merged[id] = this.lengths[id] = order.length
    })
    this.loading = []
    this.words = new SortedEntries([...this.ids.keys()])
  }

  /** Document `number` is now `urn` with `words` (encodeWords), or has none (''). */
  set(number: number, urn: string, words: string): void {
    const scores = decodeWords(words)
    // Words whose place in their posting is unchanged stay where they are; the others leave first (a posting that
    // empties gives its id back before the new words take theirs).
    const old = this.documents[number]
    const kept = new Set<string>()
    if (old) {
      old.ids.forEach((id, k) => {
        const word = this.wordOf[id]!
        if (old.urn === urn && scores.get(word) === old.scores[k]) kept.add(word)
        else this.unpost(id, number, old.scores[k]!)
      })
    }
    const doc: WordDocument = { urn, ids: [], scores: [] }
    for (const [word, score] of scores) {
      doc.ids.push(this.idFor(word))
      doc.scores.push(score)
    }
    this.put(number, doc)
    if (old?.urn !== urn) this.urnKeys.add(number, urn)
    doc.ids.forEach((id) => { if (!kept.has(this.wordOf[id]!)) this.post(id, number) })
  }

  /** Document `number` is gone. */
  delete(number: number): void {
    const old = this.documents[number]
    if (!old) return
    old.ids.forEach((id, k) => this.unpost(id, number, old.scores[k]!))
    this.put(number, undefined)
  }

  /** A word's id, or undefined when no document has it. */
  idOf(word: string): number | undefined {
    return this.ids.get(word)
  }

  /** The documents of word `id`, in the posting's order (a view: not to be changed, nor kept past the next write). */
  posting(id: number): Int32Array {
    this.settle(id)
    return this.postings[id]?.subarray(0, this.merged[id]) ?? new Int32Array(0)
  }

  /** The scores of word `id`'s documents, beside its posting (a view, as posting's). */
  scoresOf(id: number): Float64Array {
    this.settle(id)
    return this.postingScores[id]?.subarray(0, this.merged[id]) ?? new Float64Array(0)
  }

  /** The ids of the words that start with `prefix`, in the words' order, at most `limit` + 1 (more: too many). */
  expand(prefix: string, limit: number): number[] {
    const found: number[] = []
    this.words.scan(prefix, (word) => word.startsWith(prefix) && found.push(this.ids.get(word)!) <= limit)
    return found
  }

  /** Document `number`'s score for word `id` (minus its relevance), or undefined when it does not have it. */
  score(number: number, id: number): number | undefined {
    const doc = this.documents[number]
    return doc && scoreIn(doc, id)
  }

  /** The best (lowest) score of document `number` among the words `ids` marks, or undefined. */
  bestScore(number: number, ids: StampedMarks): number | undefined {
    const doc = this.documents[number]
    let best: number | undefined
    if (doc) for (let k = 0; k < doc.ids.length; k++) if (ids.has(doc.ids[k]!) && (best === undefined || doc.scores[k]! < best)) best = doc.scores[k]
    return best
  }

  /**
   * A stamp of word ids `ids` (and of the set of words, which a prefix expands in): equal stamps taken before and
   * after the copy took changes mean that no document joined, left or moved in those words' postings meanwhile.
   */
  stamp(ids: readonly number[]): number[] {
    return [this.vocabulary, ...ids.map((id) => this.changes[id] ?? 0)]
  }

  /** The document numbers the copy may hold (the limit of marks by document). */
  get documentLimit(): number {
    return this.documents.length
  }

  /** The ids the copy may give (the limit of the marks bestScore reads). */
  get idLimit(): number {
    return this.wordOf.length
  }

  /** The ids of document `number`'s words (a view: not to be changed, nor kept past the next write). */
  wordIds(number: number): readonly number[] {
    return this.documents[number]?.ids ?? []
  }

  /** Document `number`'s place in the urns' order, as a number: orders documents as their urns (`<`) do. */
  orderKey(number: number): number {
    return this.urnKeys.keyOf(number)
  }

  /** Whether the copy holds document `number`. */
  has(number: number): boolean {
    return this.documents[number] !== undefined
  }

  urn(number: number): string {
    return this.documents[number]!.urn
  }

  private put(number: number, doc: WordDocument | undefined): void {
    while (this.documents.length < number) this.documents.push(undefined)
    this.documents[number] = doc
  }

  /**
   * Where a document of `score` and urn key `key` is or would be among the first `length` of word `id`'s merged
   * posting: by score, then urn (its key).
   */
  private place(id: number, length: number, score: number, key: number): number {
    const posting = this.postings[id]!
    const scores = this.postingScores[id]!
    let lo = 0
    let hi = length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (scores[mid]! < score || (scores[mid] === score && this.urnKeys.keyOf(posting[mid]!) < key)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Document `number` joins word `id`'s posting (it was not in it): it waits to be merged. */
  private post(id: number, number: number): void {
    const length = this.lengths[id]!
    this.changes[id] = (this.changes[id] ?? 0) + 1
    if (length === 0) {
      this.words.add(this.wordOf[id]!)
      this.vocabulary++
    }
    const waiting = this.waitingOf(id)
    waiting.numbers.push(number)
    waiting.scores.push(this.score(number, id)!)
    this.lengths[id] = length + 1
    this.listener?.joined(number, id)
    if (manyWaiting(waiting.numbers.length, this.merged[id]!)) this.settle(id)
  }

  /**
   * Takes `number` (its score there `score`) out of word `id`'s posting: from the waiting documents, or marked to
   * leave the merged ones at its place, found by a binary search (the merged documents keep their keys' order until
   * a merge: a document whose number was given to another urn since only leaves at one), else by a scan.
   */
  private unpost(id: number, number: number, score: number): void {
    this.changes[id] = (this.changes[id] ?? 0) + 1
    const waiting = this.waiting[id]
    const k = waiting ? waiting.numbers.indexOf(number) : -1
    let found = k >= 0
    if (found) {
      waiting!.numbers.splice(k, 1)
      waiting!.scores.splice(k, 1)
    } else {
      const merged = this.merged[id]!
      const posting = this.postings[id]!
      let at = this.place(id, merged, score, this.urnKeys.keyOf(number))
      if (at >= merged || posting[at] !== number) at = posting.subarray(0, merged).indexOf(number)
      if (at >= 0 && !waiting?.leaving.has(at)) {
        const leaving = this.waitingOf(id).leaving
        leaving.add(at)
        found = true
        if (manyWaiting(leaving.size, merged)) this.settle(id)
      }
    }
    if (found) {
      this.lengths[id] = this.lengths[id]! - 1
      this.listener?.left(number, id)
    }
    if (this.lengths[id] === 0) {
      this.words.delete(this.wordOf[id]!)
      this.vocabulary++
      this.release(id)
    }
  }

  /** Word `id`'s waiting changes, made on first use. */
  private waitingOf(id: number): Waiting {
    return (this.waiting[id] ??= { numbers: [], scores: [], leaving: new Set() })
  }

  /**
   * Merges word `id`'s waiting changes into its posting: the leaving documents are cut out (a move of each stretch
   * between them), then the joining ones, in order, are placed from the last one back, each by a binary search and one
   * move of the documents after it (every merged document moves once at most).
   */
  private settle(id: number): void {
    const waiting = this.waiting[id]
    if (!waiting || (waiting.numbers.length === 0 && waiting.leaving.size === 0)) return
    let posting = this.postings[id]!
    let scores = this.postingScores[id]!
    let length = this.merged[id]!
    if (waiting.leaving.size > 0) {
      const leaving = Int32Array.from(waiting.leaving).sort()
      let to = leaving[0]!
      for (let r = 0; r < leaving.length; r++) {
        const from = leaving[r]! + 1
        const end = leaving[r + 1] ?? length
        posting.copyWithin(to, from, end)
        scores.copyWithin(to, from, end)
        to += end - from
      }
      length = to
    }
    const joining = waiting.numbers.length
    if (joining > 0) {
      if (length + joining > posting.length) {
        const room = Math.max(4, 2 * (length + joining))
        posting = new Int32Array(room)
        scores = new Float64Array(room)
        posting.set(this.postings[id]!.subarray(0, length))
        scores.set(this.postingScores[id]!.subarray(0, length))
        this.postings[id] = posting
        this.postingScores[id] = scores
      }
      const keys = waiting.numbers.map((n) => this.urnKeys.keyOf(n))
      const order = waiting.numbers.map((_, k) => k).sort((a, b) => waiting.scores[a]! - waiting.scores[b]! || keys[a]! - keys[b]!)
      let end = length
      for (let j = joining - 1; j >= 0; j--) {
        const k = order[j]!
        const at = this.place(id, end, waiting.scores[k]!, keys[k]!)
        posting.copyWithin(at + j + 1, at, end)
        scores.copyWithin(at + j + 1, at, end)
        posting[at + j] = waiting.numbers[k]!
        scores[at + j] = waiting.scores[k]!
        end = at
      }
    }
    this.merged[id] = length + joining
    // Kept for the next changes (a posting read after every write would otherwise make one each time).
    waiting.numbers.length = 0
    waiting.scores.length = 0
    waiting.leaving.clear()
  }

  /** The id of `word`, given one (with an empty posting) when it has none. */
  private idFor(word: string): number {
    let id = this.ids.get(word)
    if (id === undefined) {
      id = this.freeIds.pop() ?? this.wordOf.length
      this.ids.set(word, id)
      this.wordOf[id] = word
      this.postings[id] = new Int32Array(0)
      this.postingScores[id] = new Float64Array(0)
      this.merged[id] = this.lengths[id] = 0
      this.waiting[id] = undefined
    }
    return id
  }

  private release(id: number): void {
    if (this.ids.delete(this.wordOf[id]!)) this.freeIds.push(id)
    this.listener?.released(id)
  }
}

function scoreIn(doc: WordDocument, id: number): number | undefined {
  const k = doc.ids.indexOf(id)
  return k < 0 ? undefined : doc.scores[k]
}
