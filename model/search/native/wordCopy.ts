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
   * Each word's documents (numbers) in the posting's order, by word id: the first `lengths[id]` of a typed array
   * with room to spare, so that a write moves a part of it in place (copyWithin: about a fifth of a splice's time).
   */
  private postings: Int32Array[] = []
  /**
   * Each posting's scores, side by side with its numbers: a write places a document in a posting by a binary
   * search that reads them here, not in each visited document's own words.
   */
  private postingScores: Float64Array[] = []
  private readonly lengths: number[] = []
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
      this.postings[id] = Int32Array.from(order, (k) => numbers[k]!)
      this.postingScores[id] = Float64Array.from(order, (k) => scores[k]!)
      this.lengths[id] = order.length
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
        else this.unpost(id, number)
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
    for (const id of old.ids) this.unpost(id, number)
    this.put(number, undefined)
  }

  /** A word's id, or undefined when no document has it. */
  idOf(word: string): number | undefined {
    return this.ids.get(word)
  }

  /** The documents of word `id`, in the posting's order (a view: not to be changed, nor kept past the next write). */
  posting(id: number): Int32Array {
    return this.postings[id]?.subarray(0, this.lengths[id]) ?? new Int32Array(0)
  }

  /** The scores of word `id`'s documents, beside its posting (a view, as posting's). */
  scoresOf(id: number): Float64Array {
    return this.postingScores[id]?.subarray(0, this.lengths[id]) ?? new Float64Array(0)
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

  /** Where document `number` with `score` (and its urn) is or would be in word `id`'s posting: by score, then urn (its key). */
  private place(id: number, number: number, score: number): number {
    const posting = this.postings[id]!
    const scores = this.postingScores[id]!
    const key = this.urnKeys.keyOf(number)
    let lo = 0
    let hi = this.lengths[id]!
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (scores[mid]! < score || (scores[mid] === score && this.urnKeys.keyOf(posting[mid]!) < key)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private post(id: number, number: number): void {
    const length = this.lengths[id]!
    this.changes[id] = (this.changes[id] ?? 0) + 1
    if (length === 0) {
      this.words.add(this.wordOf[id]!)
      this.vocabulary++
    }
    const score = this.score(number, id)!
    const at = this.place(id, number, score)
    if (at < length && this.postings[id]![at] === number) return
    if (length === this.postings[id]!.length) this.grow(id)
    const [posting, scores] = [this.postings[id]!, this.postingScores[id]!]
    posting.copyWithin(at + 1, at, length)
    scores.copyWithin(at + 1, at, length)
    posting[at] = number
    scores[at] = score
    this.lengths[id] = length + 1
    this.listener?.joined(number, id)
  }

  /**
   * Takes `number` out of word `id`'s posting: found by a scan of its numbers (a native loop over a typed array, a
   * few microseconds for thousands) rather than placed by its score and urn (a string comparison per step, each
   * behind a cache miss or two).
   */
  private unpost(id: number, number: number): void {
    const posting = this.postings[id]!
    const length = this.lengths[id]!
    this.changes[id] = (this.changes[id] ?? 0) + 1
    const at = posting.subarray(0, length).indexOf(number)
    if (at >= 0) {
      posting.copyWithin(at, at + 1, length)
      this.postingScores[id]!.copyWithin(at, at + 1, length)
      this.lengths[id] = length - 1
      this.listener?.left(number, id)
    }
    if (this.lengths[id] === 0) {
      this.words.delete(this.wordOf[id]!)
      this.vocabulary++
      this.release(id)
    }
  }

  /** Twice the room for word `id`'s posting (at least 4). */
  private grow(id: number): void {
    const room = Math.max(4, 2 * this.postings[id]!.length)
    const posting = new Int32Array(room)
    const scores = new Float64Array(room)
    posting.set(this.postings[id]!)
    scores.set(this.postingScores[id]!)
    this.postings[id] = posting
    this.postingScores[id] = scores
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
      this.lengths[id] = 0
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
