/**
 * `token create --subject S --scope read|write|admin [--ttl 30d]`, `token list`, `token revoke <id>`: access tokens
 * managed in Redis through TokenStore (the gateway checks them). The secret is shown once, at creation.
 */
import { SCOPES, TokenStore, type ListedToken, type Scope } from '../../model/services/tokens.ts'
import { durationMs, parse, UsageError } from './args.ts'
import { withRedis } from './redis.ts'

export const usage = 'token create --subject S --scope read|write|admin [--ttl 30d] | token list | token revoke <id>'

const iso = (ms?: number) => (ms === undefined ? 'never' : new Date(ms).toISOString())

/** The token list as an aligned table; pure. */
export function formatTokens(records: ListedToken[]): string {
  const rows = [['ID', 'SUBJECT', 'SCOPE', 'CREATED', 'EXPIRES', 'LAST USED'],
    ...[...records].sort((a, b) => a.created - b.created).map((r) => [r.id, r.subject, r.scope, iso(r.created), iso(r.expires), iso(r.lastUsed)])]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n'
}

async function create(argv: string[]): Promise<number> {
  const { values } = parse(argv, { subject: { type: 'string' }, scope: { type: 'string' }, ttl: { type: 'string' } }, { min: 0, max: 0 })
  if (!values.subject) throw new UsageError('--subject is required')
  if (!values.scope || !(SCOPES as readonly string[]).includes(values.scope)) throw new UsageError(`--scope must be one of ${SCOPES.join(', ')}`)
  const ttl = values.ttl === undefined ? undefined : durationMs(values.ttl, 'ttl')
  return withRedis(async (redis, keys) => {
    const { token, record } = await new TokenStore(redis, keys).create(values.subject!, values.scope as Scope, ttl)
    process.stdout.write(`token: ${token}\nid: ${record.id}\nsubject: ${record.subject}\nscope: ${record.scope}\nexpires: ${iso(record.expires)}\n`)
    process.stderr.write('the token is shown only once: store it now\n')
    return 0
  })
}

async function list(argv: string[]): Promise<number> {
  parse(argv, {}, { min: 0, max: 0 })
  return withRedis(async (redis, keys) => {
    process.stdout.write(formatTokens(await new TokenStore(redis, keys).list()))
    return 0
  })
}

async function revoke(argv: string[]): Promise<number> {
  const { positionals } = parse(argv, {}, { min: 1, max: 1, name: '<id>' })
  const id = positionals[0]!
  return withRedis(async (redis, keys) => {
    if (await new TokenStore(redis, keys).revoke(id, { prefix: true })) {
      process.stdout.write(`revoked ${id}\n`)
      return 0
    }
    process.stderr.write(`no single token has an id starting with "${id}" (see token list)\n`)
    return 1
  })
}

/** Runs `token <create|list|revoke> ...`; answers the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  switch (sub) {
    case 'create': return create(rest)
    case 'list': return list(rest)
    case 'revoke': return revoke(rest)
    default: throw new UsageError(sub ? `unknown token command "${sub}"` : 'missing token command')
  }
}
