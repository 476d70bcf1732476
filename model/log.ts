/** Structured logs: one JSON line per event on stdout, filtered by level (LOG_LEVEL). */

export type Level = 'debug' | 'info' | 'warn' | 'error'
const RANK: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  /** Start-up and shutdown lines: printed at every level but silent. */
  notice(msg: string, fields?: Record<string, unknown>): void
  enabled(level: Level): boolean
}

/** A logger writing JSON lines `{time, level, msg, component, ...fields}` to `out`. */
export function createLogger(level: Level | 'silent', component: string, out: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const threshold = RANK[level]
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>, force = false): void => {
    if (RANK[lvl] < threshold && !(force && threshold < RANK.silent)) return
    out(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, component, msg, ...fields })}\n`)
  }
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    notice: (m, f) => write('info', m, f, true),
    enabled: (lvl) => RANK[lvl] >= threshold,
  }
}
