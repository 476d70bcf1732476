/**
 * A query of words answered from a gateway's copy of the words (wordCopy.ts): every word must match (a prefix word:
 * any word that starts with it, scoring its best one), a match scores the sum of its words' scores (minus the
 * relevance), and matches come in the order of that score, then of the urn (the redisearch engine's order too). Its
 * cost is that of the documents of the query's words (one word: its posting; several: the rarest word's documents,
 * each kept or dropped by a mark per other word: stampedMarks.ts), in this process, not Redis's.
 */
import { withMarks } from './stampedMarks.ts'
import type { WordCopy } from './wordCopy.ts'
import { mergeOrder } from '../../mergeOrder.ts'

export interface QueryWord { token: string; prefix: boolean }

/** A match: its document number and score (minus the relevance). */
export interface WordMatch { number: number; score: number }

export interface WordAnswer {
  total: number
  /** Matches [from, from + size) in order. */
  page: WordMatch[]
  /** Every match's document number (facets); empty when not asked for (one word's posting read whole). */
  numbers: number[]
}

/**
 * The matches of `words` among the documents `keep` accepts (every one when it is undefined); `expansions` gives
 * each prefix word's words (ids: wordCopy.ts expand). `numbers`: whether the answer lists every match's number
 * (not needed when the facets are counted already: facetTallies.ts).
 */
export function matchWords(copy: WordCopy, words: readonly QueryWord[], expansions: ReadonlyMap<string, readonly number[]>, keep: ((number: number) => boolean) | undefined, from: number, size: number, numbers = true): WordAnswer {
  const ids = words.map((w) => {
    if (w.prefix) return expansions.get(w.token) ?? []
    const id = copy.idOf(w.token)
    return id === undefined ? [] : [id]
  })
  if (words.length === 0 || ids.some((list) => list.length === 0)) return { total: 0, page: [], numbers: [] }
  if (words.length === 1 && ids[0]!.length === 1 && !keep && !numbers) {
    // One posting, whole: its length and its page.
    const posting = copy.posting(ids[0]![0]!)
    const scores = copy.scoresOf(ids[0]![0]!)
    const page: WordMatch[] = []
    for (let k = from; k < Math.min(from + size, posting.length); k++) page.push({ number: posting[k]!, score: scores[k]! })
    return { total: posting.length, page, numbers: [] }
  }
  return words.length === 1 ? oneWord(copy, ids[0]!, keep, from, size, numbers) : severalWords(copy, ids, keep, from, size)
}

/** The id of the one word a query matches (a word, or a prefix that only one word has), else undefined. */
export function singleWord(copy: WordCopy, words: readonly QueryWord[], expansions: ReadonlyMap<string, readonly number[]>): number | undefined {
  if (words.length !== 1) return undefined
  const w = words[0]!
  if (!w.prefix) return copy.idOf(w.token)
  const ids = expansions.get(w.token) ?? []
  return ids.length === 1 ? ids[0] : undefined
}

/**
 * One word (or the words a prefix expands to): its postings are in order already, so the matches are every
 * accepted document of them, each once, and the page is read from the posting (several: merged in order, a
 * document at its first, best, place, as far as the page goes).
 */
function oneWord(copy: WordCopy, ids: readonly number[], keep: ((number: number) => boolean) | undefined, from: number, size: number, listed: boolean): WordAnswer {
  const postings = ids.map((id) => copy.posting(id))
  if (postings.length === 1) {
    // Copied: the posting changes as the copy follows the log, which the facets' count may wait for. Scores are
    // read beside the posting (a document's own words are scattered in memory).
    const posting = postings[0]!
    const scores = copy.scoresOf(ids[0]!)
    const numbers: number[] = []
    const page: WordMatch[] = []
    for (let k = 0; k < posting.length; k++) {
      const n = posting[k]!
      if (keep && !keep(n)) continue
      if (numbers.length >= from && numbers.length < from + size) page.push({ number: n, score: scores[k]! })
      numbers.push(n)
    }
    return { total: numbers.length, page, numbers }
  }
  // Each document once: a mark per document number (a set of thousands of numbers cost more than the rest).
  const numbers: number[] = []
  const total = withMarks([copy.documentLimit], ([seen]) => {
    let found = 0
    for (const posting of postings) {
      for (let i = 0; i < posting.length; i++) {
        const n = posting[i]!
        if (seen!.has(n)) continue
        seen!.mark(n)
        if (keep && !keep(n)) continue
        found++
        if (listed) numbers.push(n)
      }
    }
    return found
  })
  const page: WordMatch[] = []
  if (size > 0 && from < total) {
    const placed = new Set<number>()
    let skipped = 0
    eachMerged(copy, ids, (n, score) => {
      if (placed.has(n) || (keep && !keep(n))) return true
      placed.add(n)
      if (skipped++ < from) return true
      page.push({ number: n, score })
      return page.length < size
    })
  }
  return { total, page, numbers }
}

/**
 * Several words: the documents of the word with the fewest lead; the others' documents are marked (one byte per
 * document number: a lead document is then kept or dropped by one read, not by a look at its own words, scattered
 * in memory); each match is scored on every word (the sum of its scores; a prefix word's best among the words it
 * expands to) and the matches are put in order.
 */
function severalWords(copy: WordCopy, ids: readonly (readonly number[])[], keep: ((number: number) => boolean) | undefined, from: number, size: number): WordAnswer {
  const sizes = ids.map((list) => list.reduce((n, id) => n + copy.posting(id).length, 0))
  const leadAt = sizes.indexOf(Math.min(...sizes))
  const lead = ids[leadAt]!
  const others = ids.filter((_, k) => k !== leadAt)
  const prefixes = ids.filter((list) => list.length > 1)
  // Loops by index over typed arrays, and no object per match: a query's thousands of candidates each allocated an
  // iterator step (a lead of several words was a Set) and a match object, which the gateway's young-generation
  // collections then copied while the query was in flight.
  return withMarks([...others.map(() => copy.documentLimit), ...prefixes.map(() => copy.idLimit), copy.documentLimit], (marks) => {
    const marked = others.map((list, k) => {
      const m = marks[k]!
      for (const id of list) {
        const posting = copy.posting(id)
        for (let i = 0; i < posting.length; i++) m.mark(posting[i]!)
      }
      return m
    })
    // A word of one id is scored as it is; a prefix's ids are marked.
    let next = others.length
    const scoring = ids.map((list) => {
      if (list.length === 1) return list[0]!
      const wordMarks = marks[next++]!
      for (const id of list) wordMarks.mark(id)
      return wordMarks
    })
    // A lead of several words (a prefix) visits a document once: at its first posting.
    const seen = marks[marks.length - 1]!
    const numbers: number[] = []
    const scores: number[] = []
    for (const id of lead) {
      const posting = copy.posting(id)
      candidates: for (let i = 0; i < posting.length; i++) {
        const number = posting[i]!
        if (lead.length > 1) {
          if (seen.has(number)) continue
          seen.mark(number)
        }
        for (let k = 0; k < marked.length; k++) if (!marked[k]!.has(number)) continue candidates
        if (keep && !keep(number)) continue
        let score = 0
        for (const m of scoring) score += (typeof m === 'number' ? copy.score(number, m) : copy.bestScore(number, m))!
        numbers.push(number)
        scores.push(score)
      }
    }
    const page: WordMatch[] = []
    if (size > 0 && from < numbers.length) {
      const order = new Uint32Array(numbers.length)
      for (let i = 0; i < order.length; i++) order[i] = i
      order.sort((a, b) => scores[a]! - scores[b]! || copy.orderKey(numbers[a]!) - copy.orderKey(numbers[b]!))
      for (let k = from; k < Math.min(from + size, order.length); k++) page.push({ number: numbers[order[k]!]!, score: scores[order[k]!]! })
    }
    return { total: numbers.length, page, numbers }
  })
}

/**
 * The members of the postings of words `ids` in order (score, then urn), duplicates kept: `visit(number, score)` for
 * each until it answers false.
 */
function eachMerged(copy: WordCopy, ids: readonly number[], visit: (number: number, score: number) => boolean): void {
  const postings = ids.map((id) => copy.posting(id))
  const scores = ids.map((id) => copy.scoresOf(id))
  const at = ids.map(() => 0)
  const before = (a: number, b: number): boolean => {
    const sa = scores[a]![at[a]!]!
    const sb = scores[b]![at[b]!]!
    return sa < sb || (sa === sb && copy.orderKey(postings[a]![at[a]!]!) < copy.orderKey(postings[b]![at[b]!]!))
  }
  mergeOrder(at, postings.map((p) => p.length), before, (k) => visit(postings[k]![at[k]!]!, scores[k]![at[k]!]!))
}
