/**
 * The ops CLI: `npm run svc -- <command> ...` (or `node_modules/.bin/node ops/cli/main.ts <command> ...`). One file per command;
 * this dispatcher only picks the command, maps a bad command line to exit 2 with the usage line, and any other
 * failure to exit 1.
 */
import { UsageError } from './args.ts'
import * as del from './delete.ts'
import * as ingest from './ingest.ts'
import * as log from './log.ts'
import * as migrate from './migrate.ts'
import * as queues from './queues.ts'
import * as restore from './restore.ts'
import * as rollback from './rollback.ts'
import * as token from './token.ts'

interface Command {
  usage: string
  run(argv: string[]): Promise<number>
}

const COMMANDS: Record<string, Command> = { ingest, restore, token, delete: del, rollback, queues, log, migrate }
/** How the usage line tells to run it: the npm script, which uses the project's Node 22 (a machine's Node 20 cannot run .ts). */
const PROGRAM = 'npm run svc --'

/** Every command's usage line. */
export function usageText(): string {
  return `usage: ${PROGRAM} <command>\n${Object.values(COMMANDS).map((c) => `  ${c.usage}\n`).join('')}`
}

/** Runs the command line `argv` (without node and script); answers the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    ;(name === undefined ? process.stderr : process.stdout).write(usageText())
    return name === undefined ? 2 : 0
  }
  const command = COMMANDS[name]
  if (!command) {
    process.stderr.write(`error: unknown command "${name}"\n${usageText()}`)
    return 2
  }
  try {
    return await command.run(rest)
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\nusage: ${PROGRAM} ${command.usage}\n`)
      return 2
    }
    process.stderr.write(`error: ${(err as Error).message}\n`)
    return 1
  }
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)))
