/**
 * A progress bar on stderr (stdout stays for results): `label [#####-----] done/total rate/s`. On a terminal it
 * redraws one line; otherwise (pipes, CI logs) it prints a line at most once a second, and the final state once
 * (never twice when the last tick already showed it).
 */

/** The bar as text; pure, so its shape is tested without a terminal. */
export function renderProgress(label: string, done: number, total: number, elapsedMs: number, width = 30): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 1
  const filled = Math.round(ratio * width)
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${formatRate(rate)}/s`
}

/** A rate with sensible precision (`0.52`, `12.3`, `1534`). */
export function formatRate(rate: number): string {
  return rate >= 100 ? String(Math.round(rate)) : rate >= 10 ? rate.toFixed(1) : rate.toFixed(2)
}

export interface Progress {
  /** Adds `n` items done. */
  tick(n: number): void
  /** Changes the total (when it was only an estimate). */
  setTotal(total: number): void
  /** Draws the final state and ends the line. */
  done(): void
  readonly elapsedMs: number
}

/** Starts a progress bar of `total` items on `stream` (stderr by default). */
export function startProgress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now()
  let count = 0
  let lastDraw = 0
  let drawnCount = -1
  const tty = stream.isTTY === true
  const draw = (final: boolean) => {
    const now = Date.now()
    if (final && count === drawnCount) {
      if (tty) stream.write('\n') // the line already shows the final state: end it
      return
    }
    if (!final && now - lastDraw < (tty ? 100 : 1000)) return
    lastDraw = now
    drawnCount = count
    const line = renderProgress(label, count, total, now - started)
    stream.write(tty ? `\r${line}${final ? '\n' : ''}` : `${line}\n`)
  }
  return {
    tick(n) { count += n; draw(false) },
    setTotal(t) { total = t },
    done() { draw(true) },
    get elapsedMs() { return Date.now() - started },
  }
}
