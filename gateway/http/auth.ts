/**
 * Who is calling: checks the `Authorization: Bearer <token>` header against the route's scope. Admin routes
 * (restore indices, rollback) always need a token; with AUTH_ENABLED every non-public route does. Missing or
 * unknown token: 401; a token whose scope is too small: 403.
 */
import { timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { allows, type TokenStore } from '../../model/auth/tokens.ts'
import type { Config } from '../../model/config.ts'
import { CatalogError } from '../../model/errors.ts'
import { SYSTEM_ACTOR } from '../../model/jobs.ts'
import { translateName } from '../../model/namespace.ts'
import type { Scope } from './route.ts'

function bearer(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')
  return match?.[1]
}

const sameSecret = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** The actor urn of an authenticated subject (a corpuser urn in the deployment's namespace). */
export const actorOf = (config: Config, subject: string): string =>
  (subject.startsWith('urn:') ? subject : translateName(config.namespace, `urn:svc:corpuser:${subject}`))

/** Resolves the caller for a route of `scope`; throws 401/403 catalogue errors. */
export async function authenticate(config: Config, tokens: TokenStore, scope: Scope, headers: IncomingHttpHeaders): Promise<string> {
  if (scope === 'public' || (scope !== 'admin' && !config.authEnabled)) return translateName(config.namespace, SYSTEM_ACTOR)
  const token = bearer(headers)
  if (!token) throw new CatalogError('UNAUTHORIZED', 'this route needs an "Authorization: Bearer <token>" header', [{ path: 'Authorization', message: 'missing' }])
  if (config.adminToken && sameSecret(token, config.adminToken)) return actorOf(config, 'admin')
  const record = await tokens.verify(token)
  if (!record) throw new CatalogError('UNAUTHORIZED', 'the bearer token is unknown, revoked or expired', [{ path: 'Authorization', message: 'invalid token' }])
  if (!allows(record.scope, scope)) {
    throw new CatalogError('FORBIDDEN', `a ${record.scope} token cannot use a ${scope} route`, [{ path: 'Authorization', message: `needs scope ${scope}` }])
  }
  return actorOf(config, record.subject)
}
