/**
 * Every document's words held in a gateway (indexMirror.ts), by document number: what the `tok:<token>` postings of
 * one index hold, kept as each posting in its order (score, then urn: minus the relevance, ascending, as the sorted
 * set orders it), with each document's own words and scores, so that a query of words is answered here
 * (wordQuery.ts) and costs Redis nothing but the change log's read. The apply script logs a document's words whole
 * whenever they change (WORDLOG, below); a removed document's number is logged alone (UNDOC).
 */
import { byCodeUnits, SortedEntries } from './sortedEntries.ts'

const WORD_SEP = '\u001e'
const SCORE_SEP = '\u001f'

/** A document's words as a WORDLOG entry carries them: `token SCORE_SEP score WORD_SEP ...` (scores as stored). */
export function encodeWords(tokens: ReadonlyMap<string, number>): string {
  return [...tokens].map(([token, score]) => `${token}${SCORE_SEP}${-score}`).join(WORD_SEP)
}

/** A document: its urn, and its words with their scores (minus the relevance), side by side. */
interface WordDocument {
  urn: string
  tokens: string[]
  scores: number[]
}

export class WordCopy {
  private readonly documents: (WordDocument | undefined)[] = []
  /** Each word's documents (numbers) in the posting's order. */
  private readonly postings = new Map<string, number[]>()
  /** One string per distinct word (documents share them). */
  private readonly interned = new Map<string, string>()

  /** Every word of the copy so far, in order (made when the copy is sealed). */
  private words = new SortedEntries([])

  /**
   * Adds a member of a posting read whole (`score` as stored): a copy is loaded member by member, then sealed once
   * (which puts every posting in order) before it is read or changed.
   */
  load(word: string, urn: string, number: number, score: number): void {
    const token = this.intern(word)
    let doc = this.documents[number]
    if (!doc) this.documents[number] = doc = { urn, tokens: [], scores: [] }
    doc.tokens.push(token)
    doc.scores.push(score)
    let posting = this.postings.get(token)
    if (!posting) this.postings.set(token, (posting = []))
    posting.push(number)
  }

  seal(): void {
    for (const [token, posting] of this.postings) posting.sort((a, b) => this.compare(token, a, b))
    this.words = new SortedEntries([...this.postings.keys()])
  }

  /** Document `number` is now `urn` with `words` (encodeWords), or has none (''). */
  set(number: number, urn: string, words: string): void {
    const old = this.documents[number]
    const doc: WordDocument = { urn, tokens: [], scores: [] }
    for (const part of words === '' ? [] : words.split(WORD_SEP)) {
      const cut = part.indexOf(SCORE_SEP)
      doc.tokens.push(this.intern(part.slice(0, cut)))
      doc.scores.push(Number(part.slice(cut + 1)))
    }
    // Words whose place in their posting is unchanged stay where they are.
    const same = (k: number) => old !== undefined && old.urn === urn && scoreIn(old, doc.tokens[k]!) === doc.scores[k]
    if (old) {
      old.tokens.forEach((token, k) => {
        if (scoreIn(doc, token) !== old.scores[k] || old.urn !== urn) this.unpost(token, number)
      })
    }
    this.documents[number] = doc
    doc.tokens.forEach((token, k) => { if (!same(k)) this.post(token, number) })
  }

  /** Document `number` is gone. */
  delete(number: number): void {
    const old = this.documents[number]
    if (!old) return
    for (const token of old.tokens) this.unpost(token, number)
    this.documents[number] = undefined
  }

  /** The documents of `word`, in the posting's order (not to be changed). */
  posting(word: string): readonly number[] {
    return this.postings.get(word) ?? []
  }

  /** The words that start with `prefix`, in order, at most `limit` + 1 (more than `limit`: too many). */
  expand(prefix: string, limit: number): string[] {
    const found: string[] = []
    this.words.scan(prefix, (word) => word.startsWith(prefix) && found.push(word) <= limit)
    return found
  }

  /** Document `number`'s score for `word` (minus its relevance), or undefined when it does not have it. */
  score(number: number, word: string): number | undefined {
    const doc = this.documents[number]
    return doc && scoreIn(doc, word)
  }

  /** The best (lowest) score of document `number` among its words that start with `prefix`, or undefined. */
  prefixScore(number: number, prefix: string): number | undefined {
    const doc = this.documents[number]
    let best: number | undefined
    if (doc) doc.tokens.forEach((token, k) => { if (token.startsWith(prefix) && (best === undefined || doc.scores[k]! < best)) best = doc.scores[k] })
    return best
  }

  urn(number: number): string {
    return this.documents[number]!.urn
  }

  /** Two documents of `word`'s posting in its order: by score, then urn. */
  private compare(word: string, a: number, b: number): number {
    return this.score(a, word)! - this.score(b, word)! || byCodeUnits(this.documents[a]!.urn, this.documents[b]!.urn)
  }

  /** Where `number` (with its current score and urn) is or would be in `posting`. */
  private place(word: string, posting: number[], number: number): number {
    let lo = 0
    let hi = posting.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.compare(word, posting[mid]!, number) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private post(word: string, number: number): void {
    let posting = this.postings.get(word)
    if (!posting) {
      this.postings.set(word, (posting = []))
      this.words.add(word)
    }
    const at = this.place(word, posting, number)
    if (posting[at] !== number) posting.splice(at, 0, number)
  }

  /** Takes `number` out of `word`'s posting; the document still has its old words (their scores place it). */
  private unpost(word: string, number: number): void {
    const posting = this.postings.get(word)
    if (!posting) return
    const at = this.place(word, posting, number)
    if (posting[at] === number) posting.splice(at, 1)
    else {
      // Not where its score puts it (the copy and the log disagreed): looked for whole.
      const k = posting.indexOf(number)
      if (k >= 0) posting.splice(k, 1)
    }
    if (posting.length === 0) {
      this.postings.delete(word)
      this.words.delete(word)
      this.interned.delete(word)
    }
  }

  private intern(word: string): string {
    let known = this.interned.get(word)
    if (known === undefined) this.interned.set(word, (known = word))
    return known
  }
}

function scoreIn(doc: WordDocument, word: string): number | undefined {
  const k = doc.tokens.indexOf(word)
  return k < 0 ? undefined : doc.scores[k]
}
