/**
 * Marks on small numbers (document numbers, word ids, lexicon positions) whose cost is what is marked, not how many
 * numbers there are. Each use begins a new stamp and a number is marked while its slot holds that stamp, so no use
 * clears an array. Before, a query marked its matches in a new zeroed byte array per word: 100 KB a word at 100,000
 * documents, 1 MB at 1,000,000, for a query whose words have a few thousand documents.
 */
export class StampedMarks {
  private slots = new Int32Array(0)
  private stamp = 0

  /** Begins a use over numbers below `limit` (a number at or above it must not be marked): none is marked. */
  begin(limit: number): this {
    // A new array is all zeros, which no stamp equals.
    if (this.slots.length < limit) this.slots = new Int32Array(Math.max(limit, 2 * this.slots.length))
    if (this.stamp === 0x7fffffff) {
      this.slots.fill(0)
      this.stamp = 0
    }
    this.stamp++
    return this
  }

  mark(n: number): void {
    this.slots[n] = this.stamp
  }

  has(n: number): boolean {
    return this.slots[n] === this.stamp
  }
}

/** Marks not in use, shared by every caller of withMarks (uses are synchronous, so one never sees another's). */
const idle: StampedMarks[] = []

/** Runs `use` with a mark begun over numbers below each of `limits` (one mark per limit); `use` must not await. */
export function withMarks<T>(limits: readonly number[], use: (marks: StampedMarks[]) => T): T {
  const taken = limits.map((limit) => (idle.pop() ?? new StampedMarks()).begin(limit))
  try {
    return use(taken)
  } finally {
    idle.push(...taken)
  }
}
